from django.urls import include, path

from raffle.views import events

urlpatterns = [
    path("", events.home, name="home"),
    path("events/<int:event_id>/", events.event_detail, name="event_detail"),
    path("treasury/", include("raffle.urls_treasury")),
]
