from django.urls import path

from raffle.views import events, sales

urlpatterns = [
    path("", events.home, name="home"),
    path("events/<int:event_id>/", events.event_detail, name="event_detail"),
    path("draws/<int:draw_id>/sales/", sales.sell, name="sales_sell"),
    path("draws/<int:draw_id>/rolls/", sales.rolls, name="sales_rolls"),
    path("draws/<int:draw_id>/tickets.csv", sales.draw_ticket_log, name="draw_ticket_log"),
    path("sales/<int:sale_id>/", sales.sale_detail, name="sale_detail"),
    path("sales/<int:sale_id>/ticket.pdf", sales.sale_ticket_pdf, name="sale_ticket_pdf"),
    path("sales/<int:sale_id>/void/", sales.sale_void, name="sale_void"),
]
