"""WSGI entry point of the slim content server (``gunicorn controlplane.wsgi_content``).

It always uses the slim settings, even where DJANGO_SETTINGS_MODULE names the full ones for other roles.
"""

import os

from django.core.wsgi import get_wsgi_application

from controlplane.wsgi_boot import settle

os.environ["DJANGO_SETTINGS_MODULE"] = "controlplane.settings_content"
application = get_wsgi_application()
settle()
