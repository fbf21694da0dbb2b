//! Edge stage, MCP prompts: the two questions people bring to autoprecios,
//! offered by hosts as ready-made requests (slash commands in most), and the
//! completion of their arguments from the tree being served: a model's
//! price today, and the market's month. A prompt only phrases the question
//! and names the tool that answers it; the numbers always come from the
//! tool call.
//!
//! Completion suggests the catalogue's makes and models and the months with
//! a report, matched by their start with case and accents folded, as the
//! filters match names. A request it has nothing for (another prompt, an
//! argument without suggestions, a resource) answers an empty list rather
//! than the error the specification suggests: a completion is a hint typed
//! as the user types, and hosts and the MCP conformance suite expect a
//! result they can show as "no suggestions".

use rmcp::ErrorData;
use rmcp::model::{
    CompleteRequestParams, CompleteResult, CompletionInfo, GetPromptResult, JsonObject, Prompt,
    PromptArgument, PromptMessage, Reference, Role,
};

use crate::api::text::fold;
use crate::edge::state::Site;

/// A model's price today.
pub const MODEL_PRICE: &str = "precio_de_un_modelo";
/// The market's month.
pub const MONTH_REPORT: &str = "informe_del_mes";

/// The prompts, as `prompts/list` gives them.
pub fn list() -> Vec<Prompt> {
    vec![
        Prompt::new(
            MODEL_PRICE,
            Some("Precio de hoy de un modelo 0 km en concesionarias: la cotización más baja de cada versión, dónde, frente a su precio habitual."),
            Some(vec![
                argument("make", "Marca, como la escribe el catálogo (Toyota, Citroën).", true),
                argument("model", "Modelo (Hilux, 208).", true),
            ]),
        )
        .with_title("¿Cuánto cuesta de verdad un 0 km?"),
        Prompt::new(
            MONTH_REPORT,
            Some("Qué hizo el mercado en un mes: índice de precios de concesionaria en pesos y en dólares, los más baratos, subas y bajas, concesionarias frente al catálogo."),
            Some(vec![argument(
                "month",
                "Mes AAAA-MM (hora de Argentina); sin él, el último mes cerrado.",
                false,
            )]),
        )
        .with_title("El mercado del mes"),
    ]
}

fn argument(name: &str, description: &str, required: bool) -> PromptArgument {
    PromptArgument::new(name)
        .with_description(description)
        .with_required(required)
}

/// `prompts/get`: the request a prompt makes with these `arguments`; an
/// unknown prompt or a missing required argument is invalid params.
pub fn get(name: &str, arguments: Option<&JsonObject>) -> Result<GetPromptResult, ErrorData> {
    let text_of = |key: &str| {
        arguments
            .and_then(|given| given.get(key))
            .map(|value| match value {
                serde_json::Value::String(text) => text.trim().to_owned(),
                // A model named by a number (208) arrives as one.
                other => other.to_string(),
            })
            .filter(|text| !text.is_empty())
    };
    let required = |key: &str| {
        text_of(key).ok_or_else(|| {
            ErrorData::invalid_params(format!("prompt {name} needs the argument {key}"), None)
        })
    };
    let (description, text) = match name {
        MODEL_PRICE => {
            let (make, model) = (required("make")?, required("model")?);
            (
                format!("Precio de hoy del {make} {model} 0 km"),
                format!(
                    "¿Cuánto cuesta hoy el {make} {model} 0 km en las concesionarias de la Argentina? \
                     Usá la herramienta get_model_prices (make: {make:?}, model: {model:?}) y, para cada \
                     versión, decime su cotización más baja en pesos y en dólares y dónde está, su \
                     precio habitual y si hoy está por debajo (oportunidad) o bajó hace poco. Si el \
                     modelo no aparece, buscá cómo lo escribe el catálogo con get_catalogue. Decí de \
                     qué fecha son los datos y que son precios de contado de concesionarias, no \
                     descuentos de fábrica."
                ),
            )
        }
        MONTH_REPORT => {
            let month = text_of("month");
            let which = month
                .as_ref()
                .map_or("el último mes cerrado".to_owned(), |month| {
                    format!("el mes {month}")
                });
            let call = month
                .as_ref()
                .map_or(String::new(), |m| format!(" (month: {m:?})"));
            (
                format!("El mercado de autos 0 km en {which}"),
                format!(
                    "¿Qué hizo el mercado de autos 0 km en {which}? Usá la herramienta \
                     get_market_report{call} y resumí: el índice de precios de concesionaria en \
                     pesos y en dólares (el cambio del mes y en doce meses), los más baratos, las \
                     mayores subas y bajas y cómo están las concesionarias frente al catálogo. \
                     Citá autoprecios con la fecha de los datos."
                ),
            )
        }
        _ => {
            let names: Vec<String> = list().into_iter().map(|prompt| prompt.name).collect();
            return Err(ErrorData::invalid_params(
                format!("unknown prompt {name:?}; prompts: {}", names.join(", ")),
                None,
            ));
        }
    };
    Ok(
        GetPromptResult::new(vec![PromptMessage::new_text(Role::User, text)])
            .with_description(description),
    )
}

/// `completion/complete`: the suggestions for a prompt's argument as typed
/// so far (see the module's header for what answers an empty list).
pub fn complete(site: &Site, request: &CompleteRequestParams) -> CompleteResult {
    let Reference::Prompt(prompt) = &request.r#ref else {
        return suggest(Vec::new());
    };
    let typed = fold(&request.argument.value);
    let given = |key: &str| {
        request
            .context
            .as_ref()
            .and_then(|context| context.arguments.as_ref())
            .and_then(|arguments| arguments.get(key))
            .map(|value| fold(value))
    };
    let index = site.index();
    let values: Vec<String> = match (prompt.name.as_str(), request.argument.name.as_str()) {
        (MODEL_PRICE, "make") => names(
            index.facts().iter().map(|f| f.identity.make.as_str()),
            &typed,
        ),
        (MODEL_PRICE, "model") => {
            // The makes that fold to the one given (each distinct make
            // folded once); without one, every make's models.
            let make = given("make");
            let makes: std::collections::BTreeSet<&str> = index
                .facts()
                .iter()
                .map(|f| f.identity.make.as_str())
                .collect();
            let makes: Vec<&str> = makes
                .into_iter()
                .filter(|name| make.as_ref().is_none_or(|make| fold(name) == *make))
                .collect();
            let models = index
                .facts()
                .iter()
                .filter(|f| makes.contains(&f.identity.make.as_str()))
                .map(|f| f.identity.model.as_str());
            names(models, &typed)
        }
        (MONTH_REPORT, "month") => index
            .market()
            .reports
            .keys()
            .rev()
            .filter(|month| month.starts_with(request.argument.value.trim()))
            .cloned()
            .collect(),
        _ => Vec::new(),
    };
    suggest(values)
}

/// The distinct `names` whose folded form starts with `typed`, sorted
/// (each distinct name folded once: a make is on thousands of versions).
fn names<'a>(names: impl Iterator<Item = &'a str>, typed: &str) -> Vec<String> {
    let distinct: std::collections::BTreeSet<&str> = names.collect();
    distinct
        .into_iter()
        .filter(|name| fold(name).starts_with(typed))
        .map(str::to_owned)
        .collect()
}

/// At most the protocol's 100 suggestions, with how many there are.
fn suggest(mut values: Vec<String>) -> CompleteResult {
    let total = values.len();
    values.truncate(CompletionInfo::MAX_VALUES);
    let info = CompletionInfo::with_pagination(
        values,
        u32::try_from(total).ok(),
        total > CompletionInfo::MAX_VALUES,
    )
    .unwrap_or_default();
    CompleteResult::new(info)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn at_most_one_hundred_suggestions_with_how_many_there_are() {
        let values = |n: usize| (0..n).map(|k| format!("{k:03}")).collect::<Vec<_>>();
        let exactly = suggest(values(100)).completion;
        assert_eq!(exactly.values.len(), 100);
        assert_eq!((exactly.total, exactly.has_more), (Some(100), Some(false)));
        let over = suggest(values(101)).completion;
        assert_eq!(over.values, values(100), "the first hundred, in order");
        assert_eq!((over.total, over.has_more), (Some(101), Some(true)));
        let none = suggest(Vec::new()).completion;
        assert_eq!((none.values.len(), none.total), (0, Some(0)));
    }

    #[test]
    fn names_match_their_folded_start_once_each() {
        let makes = ["Citroën", "Chery", "Citroën", "Fiat"].into_iter();
        assert_eq!(names(makes.clone(), "citr"), ["Citroën"]);
        assert_eq!(names(makes.clone(), "c"), ["Chery", "Citroën"]);
        assert_eq!(names(makes, "x"), Vec::<String>::new());
    }
}
