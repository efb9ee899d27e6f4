from django.urls import path

from raffle.views import board, dashboard, drawnight, events

urlpatterns = [
    path("", events.home, name="home"),
    path("events/<int:event_id>/", events.event_detail, name="event_detail"),
    path("events/<int:event_id>/dashboard/", dashboard.event_dashboard, name="event_dashboard"),
    path("draws/<int:draw_id>/night/", drawnight.draw_night, name="draw_night"),
    path("board/<int:event_id>/", board.public_board, name="public_board"),
]
