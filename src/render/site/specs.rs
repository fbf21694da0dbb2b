//! Render stage, specifications on a version page: the sourced values grouped
//! for reading, each with its unit and its source document, and every
//! recorded gap or missing value shown as unknown ("sin dato / desconocido"),
//! never left out: the spec says a missing value means unknown, not absent.

use serde::Serialize;
use serde_json::Value;

use super::labels::{gap_reason, source_kind};
use super::page::safe_href;
use crate::catalogue::Specs;
use crate::format::{UNKNOWN, document_date, number};

/// Text of a value that is unknown.
pub const UNKNOWN_VALUE: &str = "sin dato / desconocido";

/// A known specification: key in `values`, label, unit, group.
struct Field {
    key: &'static str,
    label: &'static str,
    unit: &'static str,
    group: usize,
}

/// Group titles, in page order; anything unlisted goes to the last.
const GROUPS: [&str; 4] = [
    "Dimensiones y capacidad",
    "Motor y consumo",
    "Seguridad y equipamiento",
    "Otros datos",
];

const FIELDS: [Field; 17] = [
    field("lengthMm", "Largo", "mm", 0),
    field("widthMm", "Ancho", "mm", 0),
    field("heightMm", "Alto", "mm", 0),
    field("wheelbaseMm", "Distancia entre ejes", "mm", 0),
    field("weightKg", "Peso en orden de marcha", "kg", 0),
    field("trunkL", "Baúl o capacidad de carga", "l", 0),
    field("fuelTankL", "Tanque de combustible", "l", 0),
    field("seats", "Asientos", "", 0),
    field("powerKw", "Potencia", "kW", 1),
    field("torqueNm", "Par motor", "Nm", 1),
    field("topSpeedKmh", "Velocidad máxima", "km/h", 1),
    field("consumptionL100km", "Consumo", "l/100 km", 1),
    field("airbags", "Airbags", "", 2),
    field(
        "aebLowSpeed",
        "Frenado autónomo de emergencia a baja velocidad",
        "",
        2,
    ),
    field(
        "laneKeepAssist",
        "Asistente de mantenimiento de carril",
        "",
        2,
    ),
    field("escStability", "Control de estabilidad (ESC)", "", 2),
    field("isofix", "Anclajes ISOFIX", "", 2),
];

const fn field(key: &'static str, label: &'static str, unit: &'static str, group: usize) -> Field {
    Field {
        key,
        label,
        unit,
        group,
    }
}

/// Unit of a value name outside the known list, from its suffix (spec:
/// Mm, Kg, L, Kw, Nm, Kmh, L100km).
fn unit_of_suffix(key: &str) -> &'static str {
    [
        ("L100km", "l/100 km"),
        ("Kmh", "km/h"),
        ("Mm", "mm"),
        ("Kg", "kg"),
        ("Kw", "kW"),
        ("Nm", "Nm"),
        ("L", "l"),
    ]
    .into_iter()
    .find(|(suffix, _)| key.ends_with(suffix))
    .map_or("", |(_, unit)| unit)
}

/// Every known value name and its Spanish label with the unit
/// (`Largo (mm)`), in page order, for the compare page's script.
pub fn labels() -> Vec<(&'static str, String)> {
    FIELDS
        .iter()
        .map(|f| {
            let label = if f.unit.is_empty() {
                f.label.to_owned()
            } else {
                format!("{} ({})", f.label, f.unit)
            };
            (f.key, label)
        })
        .collect()
}

/// A value for the compare table, whose row label carries the unit:
/// [`UNKNOWN_VALUE`] without a record, for a gap or a missing value.
pub fn compare_value(specs: Option<&Specs>, key: &str) -> String {
    let value = specs
        .filter(|specs| !specs.gaps.contains_key(key))
        .and_then(|specs| specs.values.get(key))
        .filter(|value| !value.is_null());
    let text = value.map_or_else(|| UNKNOWN_VALUE.to_owned(), |value| value_text(value, ""));
    let in_kw = specs
        .and_then(|specs| specs.values.get("powerUnit"))
        .and_then(Value::as_str)
        .is_none_or(|unit| unit == "kW");
    match (key, value) {
        ("powerKw", Some(_)) if in_kw => with_cv(&text, value),
        _ => text,
    }
}

/// Power in kW with its metric horsepower beside it, as Argentine brochures
/// give it: `150 kW (204 CV)`; 1 CV is 0,73549875 kW, rounded to the whole CV.
fn with_cv(text: &str, kw: Option<&Value>) -> String {
    match kw.and_then(Value::as_f64) {
        Some(kw) if kw.is_finite() && kw > 0.0 => {
            format!("{text} ({} CV)", (kw / 0.735_498_75).round())
        }
        _ => text.to_owned(),
    }
}

/// One row of a specification table.
#[derive(Debug, Clone, Serialize)]
pub struct SpecRow {
    /// What it is.
    pub label: String,
    /// The value with its unit, or [`UNKNOWN_VALUE`].
    pub value: String,
    /// Whether the value is unknown (a gap or missing).
    pub unknown: bool,
    /// Why it is unknown, when a gap records it.
    pub reason: Option<String>,
    /// Source: publisher and title.
    pub source: Option<String>,
    /// Source document address (http(s) only).
    pub source_url: Option<String>,
}

/// A titled group of rows.
#[derive(Debug, Clone, Serialize)]
pub struct SpecGroup {
    /// Title.
    pub title: &'static str,
    /// Rows.
    pub rows: Vec<SpecRow>,
}

/// A source document of the record.
#[derive(Debug, Clone, Serialize)]
pub struct SourceView {
    /// Who published it.
    pub publisher: String,
    /// Title.
    pub title: String,
    /// Address (http(s) only).
    pub url: Option<String>,
    /// Kind, in Spanish.
    pub kind: String,
    /// Date printed on it.
    pub document_date: String,
    /// When it was read.
    pub retrieved_at: String,
}

/// The groups of a record: every known field (known, gap or missing), then
/// every other value or gap in name order.
pub fn spec_groups(specs: &Specs) -> Vec<SpecGroup> {
    let mut groups: Vec<SpecGroup> = GROUPS
        .iter()
        .map(|title| SpecGroup {
            title,
            rows: Vec::new(),
        })
        .collect();
    for field in &FIELDS {
        let unit = if field.key == "powerKw" {
            specs
                .values
                .get("powerUnit")
                .and_then(Value::as_str)
                .unwrap_or(field.unit)
        } else {
            field.unit
        };
        let mut shown = row(specs, field.key, field.label, unit);
        if field.key == "powerKw" && unit == "kW" && !shown.unknown {
            shown.value = with_cv(&shown.value, specs.values.get("powerKw"));
        }
        groups[field.group].rows.push(shown);
    }
    let known = |key: &str| key == "powerUnit" || FIELDS.iter().any(|f| f.key == key);
    let mut others: Vec<&String> = specs.values.keys().chain(specs.gaps.keys()).collect();
    others.sort();
    others.dedup();
    for key in others.into_iter().filter(|key| !known(key)) {
        groups[GROUPS.len() - 1]
            .rows
            .push(row(specs, key, key, unit_of_suffix(key)));
    }
    groups.retain(|group| !group.rows.is_empty());
    groups
}

fn row(specs: &Specs, key: &str, label: &str, unit: &str) -> SpecRow {
    let source = specs
        .source_of
        .get(key)
        .and_then(|source_key| specs.sources.get(source_key));
    let value = specs.values.get(key).filter(|value| !value.is_null());
    let (text, unknown) = match value {
        Some(value) if !specs.gaps.contains_key(key) => (value_text(value, unit), false),
        _ => (UNKNOWN_VALUE.to_owned(), true),
    };
    SpecRow {
        label: label.to_owned(),
        value: text,
        unknown,
        reason: specs.gaps.get(key).map(gap_text),
        source: source.map(|s| format!("{}: {}", s.publisher, s.title)),
        source_url: source.and_then(|s| safe_href(&s.url)),
    }
}

/// A value as published, with its unit.
fn value_text(value: &Value, unit: &str) -> String {
    let with_unit = |text: String| {
        if unit.is_empty() {
            text
        } else {
            format!("{text} {unit}")
        }
    };
    match value {
        Value::Bool(true) => "Sí".to_owned(),
        Value::Bool(false) => "No".to_owned(),
        Value::String(text) if text == "optional" => "Opcional".to_owned(),
        Value::String(text) => with_unit(text.clone()),
        Value::Number(n) => with_unit(n.as_f64().map_or_else(|| n.to_string(), number)),
        other => other.to_string(),
    }
}

/// A gap entry in words: its reason and note when it has them.
fn gap_text(gap: &Value) -> String {
    let reason = gap.get("reason").and_then(Value::as_str).map(gap_reason);
    let note = gap.get("note").and_then(Value::as_str);
    match (reason, note) {
        (Some(reason), Some(note)) => format!("{reason}: {note}"),
        (Some(reason), None) => reason,
        (None, Some(note)) => note.to_owned(),
        (None, None) if gap.is_string() => gap.as_str().unwrap_or(UNKNOWN).to_owned(),
        (None, None) => "dato no confirmado".to_owned(),
    }
}

/// The record's source documents, by key.
pub fn sources(specs: &Specs) -> Vec<SourceView> {
    specs
        .sources
        .values()
        .map(|source| SourceView {
            publisher: source.publisher.clone(),
            title: source.title.clone(),
            url: safe_href(&source.url),
            kind: source_kind(&source.kind),
            document_date: source
                .document_date
                .as_deref()
                .map_or_else(|| UNKNOWN.to_owned(), document_date),
            retrieved_at: document_date(&source.retrieved_at),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;
    use std::collections::BTreeMap;

    fn record() -> Specs {
        Specs {
            collected_at: "2026-11-01T10:00:00Z".into(),
            source_label: None,
            values: [
                ("lengthMm", json!(5325)),
                ("powerKw", json!(150)),
                ("powerUnit", json!("kW")),
                ("aebLowSpeed", json!("optional")),
                ("rangeKm", json!(410)),
            ]
            .into_iter()
            .map(|(k, v)| (k.to_owned(), v))
            .collect(),
            source_of: [("lengthMm".to_owned(), "x".to_owned())].into(),
            sources: BTreeMap::new(),
            gaps: [("trunkL".to_owned(), json!({"reason": "missing"}))].into(),
        }
    }

    #[test]
    fn gaps_and_missing_values_read_as_unknown_never_absent() {
        let groups = spec_groups(&record());
        let rows: Vec<&SpecRow> = groups.iter().flat_map(|g| &g.rows).collect();
        let find = |label: &str| {
            rows.iter()
                .find(|r| r.label == label)
                .unwrap_or_else(|| panic!("{label}"))
        };
        assert_eq!(find("Largo").value, "5.325 mm");
        // 150 / 0,73549875 = 203,94 CV.
        assert_eq!(find("Potencia").value, "150 kW (204 CV)");
        assert_eq!(compare_value(Some(&record()), "powerKw"), "150 (204 CV)");
        assert_eq!(
            find("Frenado autónomo de emergencia a baja velocidad").value,
            "Opcional"
        );
        let trunk = find("Baúl o capacidad de carga");
        assert!(trunk.unknown);
        assert_eq!(trunk.value, UNKNOWN_VALUE);
        assert_eq!(trunk.reason.as_deref(), Some("la fuente no lo informa"));
        assert!(find("Alto").unknown, "a missing value is unknown");
        assert_eq!(find("rangeKm").value, "410");
        assert!(rows.iter().all(|r| r.label != "powerUnit"));
    }
}
