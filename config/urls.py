from django.contrib import admin
from django.urls import include, path

from core import twofactor
from core.views import healthz, set_language

admin.site.site_header = "Catch the Ace raffle manager"
admin.site.site_title = "Catch the Ace"
admin.site.index_title = "Records"

urlpatterns = [
    path("admin/", admin.site.urls),
    path("accounts/two-factor/", twofactor.two_factor_setup, name="two_factor_setup"),
    path("accounts/two-factor/verify/", twofactor.two_factor_verify, name="two_factor_verify"),
    path("accounts/", include("django.contrib.auth.urls")),
    path("healthz", healthz, name="healthz"),
    # The language switch (POST; the choice is remembered in a cookie).
    path("i18n/setlang/", set_language, name="set_language"),
    path("", include("licensing.urls")),
    path("", include("raffle.urls")),
]
