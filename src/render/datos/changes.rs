//! Render stage, data downloads: the record of what changed in the tables
//! of `/datos` between publications (`/datos/CAMBIOS.md`), so a reader whose
//! script broke, or whose numbers moved, finds why. Each entry is a day, a
//! table and what changed, in Spanish, with the digest of the table's
//! columns after the change ([`columns_digest`]: names, types and whether
//! required). A table whose columns differ from its newest entry's digest
//! has changed without an entry: [`unrecorded`] names it, and a test fails
//! until the entry is written (a change of meaning with the same columns
//! needs an entry too, which no digest can tell).

use std::fmt::Write;

use super::fields::TableDoc;
use super::package::sha256_hex;

/// Site path of the record.
pub const CHANGES_PATH: &str = "/datos/CAMBIOS.md";

/// One change of one table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Change {
    /// The day it was published, `AAAA-MM-DD`.
    pub date: &'static str,
    /// The table (its file name without extension).
    pub table: &'static str,
    /// What changed, in Spanish (Markdown).
    pub text: &'static str,
    /// [`columns_digest`] of the table after the change.
    pub columns: &'static str,
}

/// Every change, newest first.
pub const CHANGES: &[Change] = &[
    Change {
        date: "2026-11-29",
        table: "cotizaciones",
        text: "Nueva, en la base `autoprecios.sqlite` (con `versiones`, `semanas` y las tablas del \
               informe mensual): las cotizaciones del último control de cada versión publicada.",
        columns: "354c77bb24d1",
    },
    Change {
        date: "2026-11-29",
        table: "semanas",
        text: "Agrega `currency` y `average`: el promedio semanal en la moneda en que se cotizaron \
               todos los precios de la ventana (vacíos cuando se mezclan monedas), los puntos que \
               dibuja el gráfico de cada versión.",
        columns: "655789acc321",
    },
    Change {
        date: "2026-11-29",
        table: "versiones",
        text: START,
        columns: "4c95377b8bbf",
    },
    Change {
        date: "2026-11-29",
        table: "controles",
        text: START,
        columns: "54993cb0e204",
    },
    Change {
        date: "2026-11-29",
        table: "catalogo",
        text: START,
        columns: "974a8a401bca",
    },
    Change {
        date: "2026-11-29",
        table: "catalogue_checks",
        text: START,
        columns: "9434b1386d03",
    },
    Change {
        date: "2026-11-29",
        table: "versions",
        text: START,
        columns: "01ab7073653a",
    },
    Change {
        date: "2026-11-29",
        table: "catalogue_prices",
        text: START,
        columns: "379085fee8fd",
    },
    Change {
        date: "2026-11-29",
        table: "quote_checks",
        text: START,
        columns: "fbc74ae590d2",
    },
    Change {
        date: "2026-11-29",
        table: "quotes",
        text: START,
        columns: "c4c90210325f",
    },
    Change {
        date: "2026-11-29",
        table: "cpi",
        text: START,
        columns: "f1c9d2831699",
    },
];

/// The first entry of a table: the record starts with the columns it has.
const START: &str = "Empieza este registro, con las columnas de esta fecha.";

/// The digest of a table's columns: the first 12 hex digits of the sha256
/// of one line per column, `name type required`, in file order.
pub fn columns_digest(table: &TableDoc) -> String {
    let mut text = String::new();
    for field in &table.fields {
        let _ = writeln!(
            text,
            "{} {} {}",
            field.name,
            field.kind.schema_type(),
            field.required
        );
    }
    sha256_hex(text.as_bytes())[..12].to_owned()
}

/// The tables whose columns are not those of their newest entry in
/// `changes` (or that have none), each with the digest an entry needs.
pub fn unrecorded(tables: &[TableDoc], changes: &[Change]) -> Vec<String> {
    tables
        .iter()
        .filter_map(|table| {
            let digest = columns_digest(table);
            let newest = changes.iter().find(|change| change.table == table.name);
            (newest.map(|change| change.columns) != Some(digest.as_str())).then(|| {
                format!(
                    "{}: its columns changed without an entry in render::datos::changes::CHANGES \
                     (the entry's columns: \"{digest}\")",
                    table.name
                )
            })
        })
        .collect()
}

/// `/datos/CAMBIOS.md`: the changes, newest first, by day.
pub fn changes_markdown(changes: &[Change]) -> String {
    let mut text = String::from(
        "# Cambios en los datos de /datos\n\n\
         Qué cambió en cada tabla (columnas agregadas, quitadas o con otro significado), \
         de lo más nuevo a lo más viejo. Una columna nueva va al final de su tabla: \
         leé las columnas por nombre. Un cambio de significado o de tipo trae un archivo \
         con otro nombre.\n",
    );
    let mut day = "";
    for change in changes {
        if change.date != day {
            day = change.date;
            let _ = write!(text, "\n## {day}\n\n");
        }
        let _ = writeln!(text, "- `{}`: {}", change.table, change.text);
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::render::datos::fields::{FieldKind, field};

    fn table() -> TableDoc {
        TableDoc {
            name: "t",
            title: "T",
            description: "",
            primary_key: &[],
            fields: vec![field("a", FieldKind::Text, "")],
        }
    }

    #[test]
    fn a_column_change_without_an_entry_is_named() {
        let digest = columns_digest(&table());
        let entry = Change {
            date: "2026-11-29",
            table: "t",
            text: "",
            columns: Box::leak(digest.into_boxed_str()),
        };
        assert!(unrecorded(&[table()], &[entry]).is_empty());
        let mut planted = table();
        planted.fields.push(field("b", FieldKind::Number, ""));
        let named = unrecorded(&[planted], &[entry]);
        assert_eq!(named.len(), 1);
        assert!(named[0].starts_with("t: "), "{named:?}");
        let mut required = table();
        required.fields[0] = field("a", FieldKind::Text, "").required();
        assert_eq!(
            unrecorded(&[required], &[entry]).len(),
            1,
            "required changed"
        );
        assert_eq!(unrecorded(&[table()], &[]).len(), 1, "no entry at all");
    }

    #[test]
    fn every_table_of_datos_has_its_columns_recorded() {
        use crate::render::datos::fields::{catalogo, controles, semanas, versiones};
        use crate::render::datos::snapshot_fields::snapshot_tables;
        let mut tables = vec![
            versiones(),
            controles(),
            semanas(),
            catalogo(),
            crate::render::datos::fields::cotizaciones(),
        ];
        tables.extend(snapshot_tables());
        let named = unrecorded(&tables, CHANGES);
        assert!(named.is_empty(), "{}", named.join("\n"));
    }

    #[test]
    fn the_record_lists_each_day_once_newest_first() {
        let changes = [
            Change {
                date: "2026-12-01",
                table: "a",
                text: "uno",
                columns: "",
            },
            Change {
                date: "2026-12-01",
                table: "b",
                text: "dos",
                columns: "",
            },
            Change {
                date: "2026-11-29",
                table: "a",
                text: "tres",
                columns: "",
            },
        ];
        let text = changes_markdown(&changes);
        assert_eq!(text.matches("## 2026-12-01").count(), 1);
        assert!(text.find("## 2026-12-01") < text.find("## 2026-11-29"));
        assert!(text.contains("- `b`: dos\n"));
    }
}
