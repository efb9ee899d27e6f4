"""The project's URLs plus one page nobody has put in docs/roles.md yet."""

from django.http import HttpResponse
from django.urls import path

from config.urls import urlpatterns as project_urls
from core.roles import SELLER, role_required


@role_required(SELLER)
def new_page(request):
    return HttpResponse("new")


urlpatterns = [*project_urls, path("sales/new/", new_page, name="sales_new")]
