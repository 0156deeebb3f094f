"""Content routes, mounted at ``/catalogs/`` by the project URLs."""

from django.http import HttpRequest, HttpResponse
from django.urls import path
from django.views.decorators.csrf import csrf_exempt

from catalogs.content.views import all_view, metas_view

app_name = "catalogs-content"


@csrf_exempt
def graphql_view(request: HttpRequest, name: str) -> HttpResponse:
    """GraphQL queries; graphql-core (about 15 MiB a process) is imported with the first one, not at start."""
    from catalogs.content.graphql_views import graphql_view as view

    return view(request, name)


urlpatterns = [
    path("<str:name>/api/v1/all", all_view, name="all"),
    path("<str:name>/api/v1/metas", metas_view, name="metas"),
    path("<str:name>/api/v1/graphql", graphql_view, name="graphql"),
]
