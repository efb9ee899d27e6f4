from django.urls import include, path

from raffle.views import audit, board, dashboard, drawnight, events, members, results, rules, sales, schedule, supplier

urlpatterns = [
    path("", events.home, name="home"),
    path("events/<int:event_id>/", events.event_detail, name="event_detail"),
    path("events/<int:event_id>/dashboard/", dashboard.event_dashboard, name="event_dashboard"),
    path("draws/<int:draw_id>/night/", drawnight.draw_night, name="draw_night"),
    path("draws/<int:draw_id>/night/claim/", drawnight.draw_claim, name="draw_claim"),
    path("draws/<int:draw_id>/members/", members.draw_members_in_charge, name="draw_members_in_charge"),
    path("draws/<int:draw_id>/postpone/", schedule.draw_postpone, name="draw_postpone"),
    path("draws/<int:draw_id>/supplier/", supplier.supplier_import, name="supplier_import"),
    path("draws/<int:draw_id>/supplier/confirm/", supplier.supplier_import_confirm, name="supplier_import_confirm"),
    path("board/<int:event_id>/", board.public_board, name="public_board"),
    path("results/<int:event_id>/", results.public_results, name="public_results"),
    path("draws/<int:draw_id>/winner-consent/", results.winner_consent, name="winner_consent"),
    path("audit/", audit.audit_trail, name="audit_trail"),
    path("events/<int:event_id>/destructions/", audit.destruction_log, name="audit_destructions"),
    path("events/<int:event_id>/videos/", audit.video_register, name="audit_videos"),
    path("events/<int:event_id>/videos/<int:video_id>/file/", audit.video_file, name="audit_video_file"),
    path("events/<int:event_id>/registrar/", audit.registrar_register, name="audit_registrar"),
    path("events/<int:event_id>/deck/", audit.deck_public, name="deck_public"),
    path("events/<int:event_id>/rules/", rules.rules_of_play, name="rules_of_play"),
    path("events/<int:event_id>/exit-strategy/", rules.exit_strategy, name="exit_strategy"),
    path("events/<int:event_id>/rules.pdf", rules.rules_of_play_pdf, name="rules_of_play_pdf"),
    path("treasury/", include("raffle.urls.treasury")),
    path("draws/<int:draw_id>/sales/", sales.sell, name="sales_sell"),
    path("draws/<int:draw_id>/rolls/", sales.rolls, name="sales_rolls"),
    path("draws/<int:draw_id>/tickets.csv", sales.draw_ticket_log, name="draw_ticket_log"),
    path("sales/<int:sale_id>/", sales.sale_detail, name="sale_detail"),
    path("sales/<int:sale_id>/ticket.pdf", sales.sale_ticket_pdf, name="sale_ticket_pdf"),
    path("sales/<int:sale_id>/void/", sales.sale_void, name="sale_void"),
]
