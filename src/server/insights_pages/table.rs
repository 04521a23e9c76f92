//! A table of the page, made once for both of its forms: the HTML table
//! (each cell as the reader's language writes it) and the CSV file (each
//! cell as a program reads it: plain numbers with a `.`, stable English
//! column names).
//!
//! Model names, room codes and refusal reasons are text the page did not
//! write. The HTML template escapes them; in a CSV file a cell that starts
//! with `=`, `+`, `-` or `@` (or a tab or carriage return) would be run as a
//! formula by a spreadsheet, so it gets a leading apostrophe
//! ([`guard_formula`]). Quoting is the `csv` crate's.

use serde::Serialize;

/// One column: its CSV name and its heading on the page.
#[derive(Clone, Debug, Serialize)]
pub struct Column {
    /// The CSV header (`visits`, `goal_rate`).
    pub key: &'static str,
    pub label: String,
    /// Words, not numbers: aligned to the start (the first column always is).
    pub text: bool,
    /// In the CSV file only (an interval's bounds, which the page writes
    /// inside the share's own cell).
    #[serde(skip)]
    pub csv_only: bool,
}

/// One cell: for the CSV file and for the page.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cell {
    pub raw: String,
    pub shown: String,
}

impl Cell {
    pub fn new(raw: impl Into<String>, shown: impl Into<String>) -> Self {
        Self {
            raw: raw.into(),
            shown: shown.into(),
        }
    }

    /// The same text in both (a model's name, a code).
    pub fn text(s: impl Into<String>) -> Self {
        let s = s.into();
        Self {
            raw: s.clone(),
            shown: s,
        }
    }
}

/// A table: its file name, caption, columns and rows.
#[derive(Clone, Debug)]
pub struct Table {
    /// Its name in the page (`id`) and its file's (`<name>.csv`).
    pub name: &'static str,
    pub caption: String,
    pub columns: Vec<Column>,
    /// Each as long as `columns`; the first cell heads its row.
    pub rows: Vec<Vec<Cell>>,
}

/// What the page's template gets of a table.
#[derive(Serialize)]
pub struct Shown<'a> {
    pub name: &'static str,
    pub caption: &'a str,
    pub columns: Vec<Column>,
    pub rows: Vec<Vec<&'a str>>,
    /// The CSV file's address, with the page's filter.
    pub csv: String,
}

impl Table {
    pub fn new(name: &'static str, caption: impl Into<String>, columns: Vec<Column>) -> Self {
        Self {
            name,
            caption: caption.into(),
            columns,
            rows: Vec::new(),
        }
    }

    /// For the template; `query` is the filter's (`?period=7`, or empty).
    pub fn shown(&self, query: &str) -> Shown<'_> {
        let on_page = |i: &usize| self.columns.get(*i).is_some_and(|c| !c.csv_only);
        Shown {
            name: self.name,
            caption: &self.caption,
            columns: self
                .columns
                .iter()
                .filter(|c| !c.csv_only)
                .cloned()
                .collect(),
            rows: self
                .rows
                .iter()
                .map(|row| {
                    (0..row.len())
                        .filter(on_page)
                        .map(|i| row[i].shown.as_str())
                        .collect()
                })
                .collect(),
            csv: format!("/insights/{}.csv{query}", self.name),
        }
    }

    /// The CSV file: a header of the column keys, then the raw cells, each
    /// [`guard_formula`]ed.
    pub fn csv(&self) -> Result<Vec<u8>, csv::Error> {
        let mut out = csv::Writer::from_writer(Vec::new());
        out.write_record(self.columns.iter().map(|c| c.key))?;
        for row in &self.rows {
            out.write_record(row.iter().map(|c| guard_formula(&c.raw).into_owned()))?;
        }
        out.into_inner()
            .map_err(|e| csv::Error::from(std::io::Error::other(e.to_string())))
    }
}

/// Column keys and labels, in order.
pub fn columns(list: &[(&'static str, &str)]) -> Vec<Column> {
    list.iter()
        .map(|&(key, label)| Column {
            key,
            label: label.to_string(),
            text: false,
            csv_only: false,
        })
        .collect()
}

/// `cell` as a spreadsheet will not run it: a leading `'` before `=`, `+`,
/// `-`, `@`, a tab or a carriage return (OWASP's advice on CSV injection).
/// A number (`-3.5`) is left as it is: it is not a formula.
pub fn guard_formula(cell: &str) -> std::borrow::Cow<'_, str> {
    let risky = cell.starts_with(['=', '+', '-', '@', '\t', '\r']);
    if risky && cell.parse::<f64>().is_err() {
        format!("'{cell}").into()
    } else {
        cell.into()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table() -> Table {
        let mut t = Table::new(
            "models",
            "Comments per model",
            columns(&[("model", "Model"), ("comments", "Comments")]),
        );
        for (model, n) in [
            ("=HYPERLINK(\"http://x\",\"y\")", "1"),
            ("qwen-2.5", "1234"),
            ("a,b \"c\"", "2"),
            ("-bias", "-3.5"),
            ("@sum", "+7"),
        ] {
            t.rows.push(vec![
                Cell::text(model),
                Cell::new(n, format!("{n} comments")),
            ]);
        }
        t
    }

    #[test]
    fn csv_rows_are_quoted_and_formulas_defused() {
        let csv = String::from_utf8(table().csv().expect("csv")).expect("utf-8");
        let lines: Vec<&str> = csv.lines().collect();
        assert_eq!(
            lines,
            [
                "model,comments",
                "\"'=HYPERLINK(\"\"http://x\"\",\"\"y\"\")\",1",
                "qwen-2.5,1234",
                "\"a,b \"\"c\"\"\",2",
                "'-bias,-3.5",
                "'@sum,+7",
            ]
        );
    }

    #[test]
    fn only_formula_starts_are_guarded() {
        for (given, expected) in [
            ("=1+1", "'=1+1"),
            ("+cmd", "'+cmd"),
            ("-x", "'-x"),
            ("@A1", "'@A1"),
            ("\tx", "'\tx"),
            ("-12", "-12"),
            ("0.25", "0.25"),
            ("qwen", "qwen"),
            ("", ""),
        ] {
            assert_eq!(guard_formula(given), expected, "{given:?}");
        }
    }

    #[test]
    fn the_page_gets_the_shown_cells_and_the_csv_link() {
        let t = table();
        let shown = t.shown("?period=7");
        assert_eq!(shown.csv, "/insights/models.csv?period=7");
        assert_eq!(shown.rows[1], ["qwen-2.5", "1234 comments"]);
        assert_eq!(shown.columns[0].label, "Model");
    }
}
