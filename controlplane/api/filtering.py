"""django-filter's backend, with the form and the filterset's copies skipped where they add nothing.

The backend builds a filterset (a deep copy of every filter) and a form (a deep copy of every field) and
validates it on every request: 7% of an unfiltered list request's time and 12% of a filtered one's, measured
at 100k gateways. So a request that names none of the view's filters is left alone, and one that names some
is cleaned and filtered by one filterset kept per class, parameter by parameter, as its form would. A value
the form would reject goes through django-filter itself, for its 400.
"""

from __future__ import annotations

import functools
from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.db.models import QuerySet
from django_filters import FilterSet
from django_filters.rest_framework import DjangoFilterBackend
from rest_framework.request import Request

__all__ = ["FilterBackend"]


@functools.cache
def _parameters(filterset_class: type[FilterSet]) -> frozenset[str] | None:
    """The query parameters the filters read, or None when a filter's widget reads several (a range's
    ``_min`` and ``_max``), so only the form can tell."""
    fields = [f.field for f in filterset_class.base_filters.values()]
    if any(isinstance(field.widget, forms.MultiWidget) for field in fields):
        return None
    return frozenset(filterset_class.base_filters)


@functools.cache
def _shared(filterset_class: type[FilterSet]) -> FilterSet | None:
    """One unbound filterset of the class, whose filters and fields every request may use (they keep no
    request's state), or None when the class customises its form or its filtering, so only it can tell."""
    plain = (
        filterset_class.filter_queryset is FilterSet.filter_queryset
        and filterset_class.get_form_class is FilterSet.get_form_class
        and filterset_class._meta.form is forms.Form
    )
    return filterset_class() if plain else None


def _filtered(filterset: FilterSet, names: frozenset[str], request: Request, queryset: QuerySet) -> QuerySet | None:
    """``queryset`` filtered by the named parameters, cleaned by the filters' fields; None if one is invalid."""
    data = request.query_params
    for name in sorted(names.intersection(data)):
        filter_ = filterset.filters[name]
        try:
            value = filter_.field.clean(filter_.field.widget.value_from_datadict(data, {}, name))
        except ValidationError:
            return None
        queryset = filter_.filter(queryset, value)
    return queryset


class FilterBackend(DjangoFilterBackend):
    """``DjangoFilterBackend``; see the module docstring for what it skips."""

    def filter_queryset(self, request: Request, queryset: QuerySet, view: Any) -> QuerySet:
        filterset_class = getattr(view, "filterset_class", None)
        if filterset_class is not None and getattr(view, "filterset_fields", None) is None:
            names = _parameters(filterset_class)
            if names is not None and names.isdisjoint(request.query_params):
                return queryset
            shared = _shared(filterset_class) if names is not None else None
            filtered = _filtered(shared, names, request, queryset) if shared is not None and names is not None else None
            if filtered is not None:
                return filtered
        return super().filter_queryset(request, queryset, view)
