"use strict";
// Names the records' autocomplete boxes for a screen reader (axe:
// aria-input-field-name): select2 4.0 gives the chosen value role=textbox and
// no name. Runs after admin/js/autocomplete.js has built the boxes.
{
    const $ = django.jQuery;

    function nameBox(select) {
        const label = select.id ? document.querySelector(`label[for="${select.id}"]`) : null;
        const name = label ? label.textContent.replace(/[:\s]+$/, "") : select.name;
        $(select).next(".select2").find(".select2-selection__rendered").attr("aria-label", name);
    }

    $(function () {
        $(".admin-autocomplete").not("[name*=__prefix__]").each((i, select) => nameBox(select));
    });

    document.addEventListener("formset:added", (event) => {
        $(event.target).find(".admin-autocomplete").each((i, select) => nameBox(select));
    });
}
