"""The console's gateway form: the spec only, with a write-only database URI, checked as the API checks it.

The model's ``clean()`` holds the rules both share (route hosts unique per cluster among them).
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.db.models import URLField

from controlplane.admin_site import WriteOnlyPasswordInput, write_only_field
from controlplane.api.permissions import is_platform_admin
from controlplane.image_policy import IMAGE_FIELDS
from gateways.choices import DatabaseProvider
from gateways.image_rules import admin_exception, image_errors
from gateways.models import Gateway, GatewayRelease

__all__ = ["GatewayForm", "https_url_formfield"]


def https_url_formfield(db_field: Any, **kwargs: Any) -> Any:
    """URL fields without a scheme are taken as https:// (the OIDC issuer must be https anyway)."""
    if isinstance(db_field, URLField):
        kwargs.setdefault("assume_scheme", "https")
    return db_field.formfield(**kwargs)


class GatewayForm(forms.ModelForm):
    database_uri = write_only_field(
        WriteOnlyPasswordInput(),
        "Write-only: the stored URI is never shown. Leave empty to keep it; "
        "it is cleared when the provider is not external.",
    )
    current_user: Any = None  # set by GatewayAdmin.get_form

    class Meta:
        model = Gateway
        fields = "__all__"
        formfield_callback = https_url_formfield

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        adding = self.instance._state.adding
        if "database_uri" in self.fields and not data.get("database_uri"):
            provider = data.get("database_provider", self.instance.database_provider)
            keep = provider == DatabaseProvider.EXTERNAL and not adding
            data["database_uri"] = self.instance.database_uri if keep else ""
        if adding and data.get("name"):
            owner = data.get("owner") or self.current_user
            if owner is not None and Gateway.objects.filter(owner=owner, name=data["name"]).exists():
                self.add_error("name", f"{owner.get_username()} already has a gateway named {data['name']}.")
        self._check_images(data)
        return data

    def _check_images(self, data: dict[str, Any]) -> None:
        """The image policy (tenants only), a missing image and mixed provenance, as the API checks them."""
        cluster = data.get("cluster") or getattr(self.instance, "cluster", None)
        if cluster is None or self.errors.get("image") or self.errors.get("supervisor_image"):
            return
        candidate = Gateway(
            cluster=cluster,
            image=data.get("image", self.instance.image),
            supervisor_image=data.get("supervisor_image", self.instance.supervisor_image),
        )
        admin = is_platform_admin(self.current_user)
        before = None if self.instance._state.adding else self.instance
        self.instance.image_override_by_admin = candidate.image_override_by_admin = admin_exception(
            candidate,
            before,
            admin=admin,
            sets_images=bool(set(IMAGE_FIELDS) & set(self.changed_data)),
        )
        release = self.instance.release if self.instance.release_id else GatewayRelease.current_default()
        for field, message in image_errors(candidate, release, admin=admin).items():
            self.add_error(field, message)
