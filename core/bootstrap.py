"""Every form of the site in Bootstrap 5's design, without a line in the
templates: settings.FORM_RENDERER is `BootstrapRenderer`, whose bound field
adds Bootstrap's class to each widget (`form-control`, `form-select`,
`form-check-input`; `is-invalid` with an error), so a hand-written
`{{ field }}` is styled like `{{ form }}`; `{{ form }}` and `as_div` lay each
field out with core/templates/forms/bootstrap/field.html (label, help text,
errors tied to the input by aria-describedby)."""

from django.forms import widgets
from django.forms.boundfield import BoundField
from django.forms.renderers import DjangoTemplates


def widget_class(widget: widgets.Widget) -> str:
    """Bootstrap's class for one kind of widget ("" for hidden inputs)."""
    if widget.is_hidden:
        return ""
    if isinstance(widget, widgets.CheckboxInput | widgets.RadioSelect | widgets.CheckboxSelectMultiple):
        return "form-check-input"
    if isinstance(widget, widgets.Select):  # SelectMultiple and NullBooleanSelect too
        return "form-select"
    return "form-control"


class BootstrapBoundField(BoundField):
    def build_widget_attrs(self, attrs, widget=None):
        widget = widget or self.field.widget
        attrs = super().build_widget_attrs(attrs, widget)
        extra = widget_class(widget)
        if extra and self.errors:
            extra += " is-invalid"
        # The widget's own class (e.g. the amount field's "money") is kept:
        # attrs given here would otherwise replace it.
        classes = [*(widget.attrs.get("class", "").split()), *(attrs.get("class", "").split()), *extra.split()]
        if classes:
            attrs["class"] = " ".join(dict.fromkeys(classes))
        return attrs


class BootstrapRenderer(DjangoTemplates):
    form_template_name = "forms/bootstrap/div.html"
    field_template_name = "forms/bootstrap/field.html"
    bound_field_class = BootstrapBoundField
