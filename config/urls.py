from django.contrib import admin
from django.urls import include, path

admin.site.site_header = "Catch the Ace raffle manager"
admin.site.site_title = "Catch the Ace"
admin.site.index_title = "Records"

urlpatterns = [
    path("admin/", admin.site.urls),
    path("accounts/", include("django.contrib.auth.urls")),
    path("", include("licensing.urls")),
    path("", include("raffle.urls")),
]
