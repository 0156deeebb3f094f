"""``manage.py bootstrap_local``: create the local admin and its token for ``make run``; print both."""

from __future__ import annotations

import secrets
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandParser
from rest_framework.authtoken.models import Token


class Command(BaseCommand):
    help = "Create (once) a local platform admin and print its username, password and API token."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--username", default="admin")
        parser.add_argument("--password", help="Defaults to a random password, printed once when created.")

    def handle(self, *args: Any, **options: Any) -> None:
        users = get_user_model()
        user = users.objects.filter(username=options["username"]).first()
        password = "(unchanged; reset it with manage.py changepassword)"
        if user is None:
            password = options["password"] or secrets.token_urlsafe(12)
            user = users.objects.create_superuser(options["username"], password=password)
        token, _ = Token.objects.get_or_create(user=user)
        self.stdout.write(f"admin user: {user.username}\nadmin password: {password}\nAPI token: {token.key}")
