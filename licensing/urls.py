"""Pages of licensing and the treasury. Each area adds its paths with its own prefix."""

urlpatterns: list = []
