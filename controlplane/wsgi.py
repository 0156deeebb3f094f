"""WSGI entry point for gunicorn."""

import os

from django.core.wsgi import get_wsgi_application

from controlplane.wsgi_boot import settle

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "controlplane.settings")
application = get_wsgi_application()
settle()
