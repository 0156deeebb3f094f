"""Content routes, mounted at ``/catalogs/`` by the project URLs."""

from django.urls import path

from catalogs.content.graphql_views import graphql_view
from catalogs.content.views import all_view, metas_view

app_name = "catalogs-content"

urlpatterns = [
    path("<str:name>/api/v1/all", all_view, name="all"),
    path("<str:name>/api/v1/metas", metas_view, name="metas"),
    path("<str:name>/api/v1/graphql", graphql_view, name="graphql"),
]
