//! Market stage, the report's words: the headline a journalist pastes and
//! the citation line, in Spanish (es-AR: a decimal comma, one decimal).

use crate::api::types::report::{Headline, ReportStatus};
use crate::month::ArMonth;
use crate::time::{Time, argentina};

/// The month's headline and its numbers (`None` where the rules publish
/// none).
pub fn headline(
    month: ArMonth,
    status: ReportStatus,
    as_of: Time,
    ars: Option<f64>,
    usd: Option<f64>,
    dollar: Option<f64>,
    cpi: Option<f64>,
) -> Headline {
    let when = match status {
        ReportStatus::Final => format!("En {}", month.spanish()),
        ReportStatus::Provisional => format!(
            "En {} (en curso, datos al {})",
            month.spanish(),
            day_and_time(as_of)
        ),
    };
    let prices = match (ars, usd) {
        (Some(ars), Some(usd)) => format!(
            "los precios de los 0 km en concesionarias {} en pesos y {} en dólares",
            moved(ars, "subieron", "bajaron", "no cambiaron"),
            moved(usd, "subieron", "bajaron", "no cambiaron")
        ),
        (Some(ars), None) => format!(
            "los precios de los 0 km en concesionarias {} en pesos",
            moved(ars, "subieron", "bajaron", "no cambiaron")
        ),
        (None, Some(usd)) => format!(
            "los precios de los 0 km en concesionarias {} en dólares",
            moved(usd, "subieron", "bajaron", "no cambiaron")
        ),
        (None, None) => {
            "no hay datos suficientes para comparar los precios de los 0 km con el mes anterior"
                .to_owned()
        }
    };
    let beside: Vec<String> = [
        dollar.map(|d| {
            format!(
                "el dólar de referencia {}",
                moved(d, "subió", "bajó", "no cambió")
            )
        }),
        cpi.map(|c| {
            let verb = moved(c, "subieron", "bajaron", "no cambiaron");
            format!("los precios al consumidor (IPC) {verb}")
        }),
    ]
    .into_iter()
    .flatten()
    .collect();
    let mut text = format!("{when} {prices}");
    if !beside.is_empty() {
        text.push_str("; ");
        text.push_str(&beside.join(" y "));
    }
    text.push('.');
    Headline {
        text,
        change_pct_ars: ars,
        change_pct_usd: usd,
        dollar_change_pct: dollar,
        cpi_change_pct: cpi,
    }
}

/// "Fuente: autoprecios, informe de octubre de 2026, <url>, con datos al 31/10/2026".
pub fn citation(month: ArMonth, url: &str, as_of: Time) -> String {
    format!(
        "Fuente: autoprecios, informe de {}, {url}, con datos al {}",
        month.spanish(),
        as_of.with_timezone(&argentina()).format("%d/%m/%Y")
    )
}

/// `31/10/2026 20:00`, Argentine time.
pub fn day_and_time(time: Time) -> String {
    time.with_timezone(&argentina())
        .format("%d/%m/%Y %H:%M")
        .to_string()
}

/// `subieron 3,1 %`, `bajaron 0,4 %`, or `no cambiaron` when the change
/// rounds to nothing at one decimal.
fn moved(pct: f64, up: &str, down: &str, still: &str) -> String {
    let tenths = (pct * 10.0).round();
    if tenths == 0.0 {
        return still.to_owned();
    }
    let verb = if tenths > 0.0 { up } else { down };
    format!("{verb} {} %", one_decimal(pct.abs()))
}

/// `3,1`: one decimal, a decimal comma.
pub fn one_decimal(value: f64) -> String {
    format!("{value:.1}").replace('.', ",")
}
