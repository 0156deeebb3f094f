"""Admin registration for managed clusters. The kubeconfig is write-only: never rendered back."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin

from controlplane.models import ManagedCluster


class ManagedClusterForm(forms.ModelForm):
    kubeconfig = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 6, "placeholder": "Paste a kubeconfig; empty keeps the current one."}),
        required=False,
        help_text="Write-only: the stored kubeconfig is never shown.",
    )

    class Meta:
        model = ManagedCluster
        fields = ("name", "flavour", "kubeconfig", "base_domain", "gateway_api", "trusted_ca_pem")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.initial["kubeconfig"] = ""
        self.fields["kubeconfig"].required = self.instance._state.adding

    def clean_kubeconfig(self) -> str:
        value = self.cleaned_data["kubeconfig"]
        return value or (self.instance.kubeconfig if not self.instance._state.adding else value)


@admin.register(ManagedCluster)
class ManagedClusterAdmin(admin.ModelAdmin):
    form = ManagedClusterForm
    list_display = ("name", "flavour", "base_domain", "reachable", "kubernetes_version", "last_probe_at")
    list_filter = ("flavour", "reachable")
    search_fields = ("name", "base_domain")
    readonly_fields = ("reachable", "kubernetes_version", "last_probe_at", "probe_message", "created_at", "updated_at")
