"""Pages of licensing and the treasury. Each area adds its paths with its own prefix."""

from django.urls import path

from licensing.views import applications, safety

urlpatterns: list = [
    path("licensing/", applications.application_list, name="application_list"),
    path("licensing/applications/new/", applications.application_new, name="application_new"),
    path("licensing/applications/<int:application_id>/", applications.application_detail, name="application_detail"),
    path(
        "licensing/applications/<int:application_id>/package.pdf", applications.application_pdf, name="application_pdf"
    ),
    path(
        "licensing/organisations/<int:organisation_id>/eligibility/",
        applications.eligibility_edit,
        name="eligibility_edit",
    ),
    path(
        "licensing/organisations/<int:organisation_id>/safety-plan/", safety.safety_plan_edit, name="safety_plan_edit"
    ),
    path("licensing/licences/<int:licence_id>/amend/", applications.licence_amend, name="licence_amend"),
]
