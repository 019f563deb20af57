// The reports' rows, filters, search, "only disagreements" toggle and
// sorting (harness/report/): inlined into every page. A large table's rows
// come as a data block (harness/report/data_block.h) that renderRows turns
// into rows first. A table of cases is <table class="cases">, each row a
// <tr data-case ...> whose data-* fields the filters read.
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

  // recordsOf reads one of the page's data blocks (harness/report/data_block.h):
  // each row as an object from column name to its text, or list of texts.
  function recordsOf(block) {
    var data = JSON.parse(block.textContent);
    var text = function (index) { return Array.isArray(index) ? index.map(text) : data.strings[index]; };
    return data.rows.map(function (row) {
      var values = row.slice(0, data.distinct).concat(data.shared[row[data.distinct]]);
      var record = {};
      data.columns.forEach(function (name, at) { record[name] = text(values[at]); });
      return record;
    });
  }

  // element makes a <tag> with `attributes` and, where given, `text`: data
  // reaches the page through setAttribute and textContent only, never as markup.
  function element(tag, attributes, text) {
    var node = document.createElement(tag);
    Object.keys(attributes).forEach(function (name) { node.setAttribute(name, attributes[name]); });
    if (text) node.textContent = text;
    return node;
  }

  // cell appends a <td> of class `css` holding `text` to `row`, and returns it.
  function cell(row, css, text) { return row.appendChild(element("td", css ? { "class": css } : {}, text)); }

  // ruleCell appends a case's model rule, with its source in italics where the PTX text does not state it.
  function ruleCell(row, record) {
    var td = cell(row, "", record.rule);
    if (record.rule_label) {
      td.appendChild(document.createTextNode(" "));
      td.appendChild(element("em", {}, "(" + record.rule_label + ")"));
    }
  }

  // linkCell appends a cell of links, `links` being href, label, href, label, ...
  function linkCell(row, css, links) {
    var td = cell(row, css, "");
    for (var at = 0; at + 1 < links.length; at += 2) {
      td.appendChild(element("a", { href: links[at] }, links[at + 1]));
      td.appendChild(document.createTextNode(" "));
    }
  }

  // facetRow starts a filterable row: the case's ID, outcome and facets as the filters read them.
  function facetRow(id, caseId, record) {
    return element("tr", {
      id: id, "data-case": caseId, "data-outcome": record.outcome, "data-target": record.target,
      "data-family": record.family, "data-shape": record.shape, "data-type": record.type,
      "data-path": record.path || "", "data-disagreement": record.disagreement
    });
  }

  // renderers build one row of a data block, by the data-render of its <tbody>.
  var renderers = {
    // A run's case that did not pass (run_report.mustache).
    "case": function (record) {
      var id = record.id_head + record.id_tail;
      var row = facetRow("case-" + id, id, record);
      cell(row, "id", "").appendChild(element("a", { href: "#case-" + id }, id));
      cell(row, record.css, record.outcome);
      cell(row, "n", record.counts);
      cell(row, "detail", record.detail);
      ruleCell(row, record);
      linkCell(row, "files", record.links);
      return row;
    },
    // A form the model and the compiler judge otherwise (support_matrix.mustache).
    "disagreement": function (record) {
      var row = facetRow(record.anchor, record.anchor, record);
      cell(row, "id", record.instruction);
      cell(row, "", record.target);
      cell(row, "", record.model);
      cell(row, record.css, record.compiler_verdict);
      cell(row, "", record.registry);
      ruleCell(row, record);
      cell(row, "detail", record.message);
      linkCell(row, "", [record.reproducer, ".ptx"]);
      return row;
    },
    // A qualifier set across the targets (support_matrix.mustache).
    "matrix": function (record) {
      var row = element("tr", { id: record.anchor });
      cell(row, "id", "").appendChild(element("a", { href: "#" + record.anchor }, record.opcode));
      record.css.forEach(function (css, at) {
        var count = record.counts[at];
        var td = row.appendChild(element("td", {
          "class": "cell " + css + (count ? " has-disagreements" : ""), title: record.titles[at] }));
        if (count) td.appendChild(element("a", { href: "#" + record.hrefs[at] }, count));
      });
      return row;
    }
  };

  // renderRows fills every <tbody data-rows="ID" data-render="KIND"> from
  // the data block <script type="application/json" id="ID">.
  function renderRows() {
    document.querySelectorAll("tbody[data-rows]").forEach(function (body) {
      var render = renderers[body.getAttribute("data-render")];
      var rows = document.createDocumentFragment();
      recordsOf(document.getElementById(body.getAttribute("data-rows"))).forEach(function (record) {
        rows.appendChild(render(record));
      });
      body.appendChild(rows);
    });
  }

  document.addEventListener("DOMContentLoaded", function () {
    renderRows();
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
