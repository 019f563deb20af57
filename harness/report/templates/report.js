// The reports' filters, search, "only disagreements" toggle and sorting
// (harness/report/): inlined into every page. A table of cases is
// <table class="cases">, each row a <tr data-case ...> whose data-* fields
// the filters read.
(function () {
  "use strict";
  var collator = new Intl.Collator(undefined, { numeric: true, sensitivity: "base" });

  function field(row, name) { return row.getAttribute("data-" + name) || ""; }

  // applyFilters shows the rows of every case table that pass the filters,
  // and says how many it shows.
  function applyFilters() {
    var wanted = {};
    document.querySelectorAll("select[data-filter]").forEach(function (select) {
      wanted[select.getAttribute("data-filter")] = select.value;
    });
    var search = document.getElementById("search");
    var text = search ? search.value.trim().toLowerCase() : "";
    var toggle = document.getElementById("only-disagreements-toggle");
    var onlyDisagreements = toggle !== null && toggle.checked;
    document.querySelectorAll("table.cases").forEach(function (table) {
      var shown = 0;
      table.querySelectorAll("tbody tr[data-case]").forEach(function (row) {
        var keep = !onlyDisagreements || field(row, "disagreement") === "1";
        Object.keys(wanted).forEach(function (name) {
          if (wanted[name] !== "" && field(row, name) !== wanted[name]) keep = false;
        });
        if (keep && text !== "" && row.textContent.toLowerCase().indexOf(text) < 0) keep = false;
        row.hidden = !keep;
        if (keep) shown += 1;
      });
      var count = document.getElementById(table.id + "-shown");
      if (count) count.textContent = String(shown);
    });
    var url = window.location.href.split("#")[0];
    if (window.history && window.history.replaceState && window.location.protocol !== "file:") {
      window.history.replaceState(null, "", onlyDisagreements ? url + "#only-disagreements" : url);
    }
  }

  // sortBy sorts a table's rows by one column, numbers and .x2 < .x16 < .x128 as a person counts.
  function sortBy(table, column, header) {
    var body = table.tBodies[0];
    if (!body) return;
    var descending = header.getAttribute("data-sorted") === "ascending";
    table.querySelectorAll("thead th").forEach(function (th) { th.removeAttribute("data-sorted"); });
    header.setAttribute("data-sorted", descending ? "descending" : "ascending");
    var rows = Array.prototype.slice.call(body.rows);
    rows.sort(function (a, b) {
      var x = a.cells[column] ? a.cells[column].textContent : "";
      var y = b.cells[column] ? b.cells[column].textContent : "";
      var order = collator.compare(x, y);
      return descending ? -order : order;
    });
    rows.forEach(function (row) { body.appendChild(row); });
  }

  document.addEventListener("DOMContentLoaded", function () {
    document.querySelectorAll("select[data-filter], #search, #only-disagreements-toggle").forEach(function (input) {
      input.addEventListener("input", applyFilters);
      input.addEventListener("change", applyFilters);
    });
    document.querySelectorAll("table.sortable").forEach(function (table) {
      table.querySelectorAll("thead th").forEach(function (header, column) {
        header.addEventListener("click", function () { sortBy(table, column, header); });
      });
    });
    var toggle = document.getElementById("only-disagreements-toggle");
    if (toggle !== null && window.location.hash === "#only-disagreements") toggle.checked = true;
    applyFilters();
    document.body.setAttribute("data-ready", "1");
  });
})();
