// Every page: JavaScript runs, so the navigation may fold behind its menu
// button on a phone (base.html; without JavaScript the links stay shown).
document.body.classList.remove("no-js");
