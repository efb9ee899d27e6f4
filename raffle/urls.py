from django.urls import path

from raffle.views import events

urlpatterns = [
    path("", events.home, name="home"),
    path("events/<int:event_id>/", events.event_detail, name="event_detail"),
]
