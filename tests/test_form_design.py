"""#16 every form in Bootstrap 5's design without a class in each template:
the project's form renderer (core/bootstrap.py) gives each widget Bootstrap's
class, marks a field with an error invalid, and lays `{{ form }}` out with
labels, help text and errors tied to the input."""

import pytest
from django import forms
from django.urls import reverse

from core.bootstrap import widget_class


class EverythingForm(forms.Form):
    name = forms.CharField(help_text="As on the licence")
    amount = forms.DecimalField(widget=forms.NumberInput(attrs={"class": "money"}))
    kind = forms.ChoiceField(choices=[("a", "A"), ("b", "B")])
    method = forms.ChoiceField(choices=[("cash", "Cash"), ("cheque", "Cheque")], widget=forms.RadioSelect)
    agreed = forms.BooleanField()
    note = forms.CharField(widget=forms.Textarea)
    secret = forms.CharField(widget=forms.HiddenInput)


def test_each_kind_of_widget_gets_bootstraps_class_and_keeps_its_own():
    html = str(EverythingForm())
    assert 'class="form-control"' in html and 'name="name"' in html
    assert 'class="money form-control"' in html  # the widget's own class is kept
    assert '<select name="kind" class="form-select"' in html
    assert html.count('class="form-check-input"') == 3  # two radios and the checkbox
    assert 'required class="form-control" id="id_note"' in html  # the textarea
    assert '<input type="hidden" name="secret" id="id_secret">' in html  # no class on a hidden input
    assert '<label class="form-label" for="id_name">Name</label>' in html
    assert '<div class="form-text" id="id_name_helptext">As on the licence</div>' in html
    assert '<legend class="form-label fs-6 mb-1">Method</legend>' in html
    assert '<div class="mb-3 form-check">' in html


def test_a_field_with_an_error_is_marked_invalid_and_names_its_error():
    form = EverythingForm(data={"name": "", "amount": "x"})
    html = str(form)
    assert 'aria-describedby="id_name_helptext id_name_error" class="form-control is-invalid"' in html
    assert '<ul class="errorlist" id="id_name_error">' in html


def test_a_hand_written_field_is_styled_like_a_rendered_form():
    form = EverythingForm()
    assert 'class="form-select"' in str(form["kind"])


@pytest.mark.parametrize(
    "widget, expected",
    [
        (forms.TextInput(), "form-control"),
        (forms.DateInput(), "form-control"),
        (forms.ClearableFileInput(), "form-control"),
        (forms.SelectMultiple(), "form-select"),
        (forms.CheckboxSelectMultiple(), "form-check-input"),
        (forms.HiddenInput(), ""),
    ],
)
def test_widget_classes(widget, expected):
    assert widget_class(widget) == expected


@pytest.mark.django_db
def test_the_sign_in_page_uses_the_design(client):
    html = client.get(reverse("login")).content.decode()
    assert 'class="form-control"' in html and 'class="btn btn-primary"' in html
    assert "vendor/bootstrap/css/bootstrap.min.css" in html and "vendor/bootstrap/js/bootstrap.bundle.min.js" in html
