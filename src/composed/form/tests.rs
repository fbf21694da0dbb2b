//! The form refill on the template's markup and on markup changed in ways
//! a browser reads alike.

use super::*;
use crate::composed::rewrite::rewrite;

const PAGE: &str = "<p>x</p><form class=\"search-form\" action=\"/buscar\">\
    <input id=\"f-q\" name=\"q\" type=\"search\" maxlength=\"200\">\
    <select id=\"f-make\" name=\"make\"><option value=\"\">Todas</option>\
    <option value=\"Citroën\">Citroën</option><option value=\"Fiat\">Fiat</option></select>\
    <input id=\"f-max\" name=\"maxPriceArs\" type=\"text\" aria-describedby=\"nota\">\
    <input id=\"f-opp\" name=\"opportunitiesOnly\" type=\"checkbox\" value=\"true\">\
    </form><input name=\"q\">";

fn state(values: &[(&str, &str)], errors: &[(&str, &str)]) -> FormState {
    let owned = |list: &[(&str, &str)]| {
        list.iter()
            .map(|(a, b)| ((*a).to_owned(), (*b).to_owned()))
            .collect()
    };
    FormState {
        values: owned(values),
        errors: owned(errors),
    }
}

fn refill(page: &str, state: &FormState) -> String {
    let refill = Refill::new(&FormShape::read(page), state);
    rewrite(page, refill.handlers())
}

#[test]
fn the_form_comes_back_filled_in() {
    let page = refill(
        PAGE,
        &state(
            &[
                ("q", "hilux \"srv\""),
                ("make", "Fiat"),
                ("opportunitiesOnly", "true"),
            ],
            &[],
        ),
    );
    assert!(page.contains(
        "<input id=\"f-q\" name=\"q\" type=\"search\" maxlength=\"200\" value=\"hilux &quot;srv&quot;\">"
    ));
    assert!(page.contains("<option value=\"Fiat\" selected>Fiat</option>"));
    assert!(page.contains("value=\"true\" checked>"));
    assert!(page.ends_with("</form><input name=\"q\">"), "only the form");
}

#[test]
fn a_refused_value_stays_with_its_message_beside_it() {
    let page = refill(
        PAGE,
        &state(
            &[("maxPriceArs", "60.000000")],
            &[("maxPriceArs", "debe ser un número <mayor>")],
        ),
    );
    assert!(page.contains(
        "<input id=\"f-max\" name=\"maxPriceArs\" type=\"text\" \
         aria-describedby=\"error-maxPriceArs nota\" aria-invalid=\"true\" value=\"60.000000\">\
         <span class=\"field-error\" id=\"error-maxPriceArs\">debe ser un número &lt;mayor&gt;</span>"
    ));
}

#[test]
fn a_refused_list_is_marked_and_its_message_follows_it() {
    let page = refill(PAGE, &state(&[("make", "Nada")], &[("make", "no existe")]));
    assert!(page.contains(
        "<select id=\"f-make\" name=\"make\" aria-describedby=\"error-make\" aria-invalid=\"true\">"
    ));
    assert!(page.contains(
        "<option value=\"Fiat\">Fiat</option></select>\
         <span class=\"field-error\" id=\"error-make\">no existe</span>"
    ));
}

#[test]
fn a_folded_group_with_a_field_sent_opens() {
    let page = "<form class=\"compare-form\"><details class=\"more\"><summary>Más</summary>\
        <input name=\"minSeats\" type=\"number\"></details>\
        <details class=\"other\"><input name=\"aeb\"></details>\
        <details class=\"open\" open><input name=\"x\"></details></form>\
        <details class=\"outside\"><input name=\"minSeats\"></details>";
    let page = refill(page, &state(&[("minSeats", "7"), ("x", "1")], &[]));
    assert!(page.contains("<details class=\"more\" open>"));
    assert!(page.contains("<details class=\"other\">"));
    assert!(page.contains("<details class=\"open\" open>"), "{page}");
    assert!(page.contains("<details class=\"outside\"><input name=\"minSeats\">"));
    assert!(page.contains("name=\"minSeats\" type=\"number\" value=\"7\">"));
}

#[test]
fn a_name_sent_without_its_accents_selects_its_option() {
    let page = refill(PAGE, &state(&[("make", "CITROEN")], &[]));
    assert!(page.contains("<option value=\"Citroën\" selected>Citroën</option>"));
    assert_eq!(page.matches("selected").count(), 1);
    // The option of the very value wins over an earlier one of its name.
    let lists = "<form class=\"search-form\"><select name=\"make\">\
        <option value=\"Citroën\">a</option><option value=\"Citroen\">b</option></select></form>";
    let page = refill(lists, &state(&[("make", "Citroen")], &[]));
    assert!(
        page.contains("<option value=\"Citroen\" selected>b</option>"),
        "{page}"
    );
    assert_eq!(page.matches("selected").count(), 1);
}

#[test]
fn a_value_no_option_has_selects_nothing() {
    let page = refill(PAGE, &state(&[("make", "Nada")], &[]));
    assert!(!page.contains("selected"));
    assert_eq!(
        refill("<p>no form</p>", &FormState::default()),
        "<p>no form</p>"
    );
}

/// The same form as a template might write it: attributes in another
/// order, single-quoted or bare, a control over several lines, more
/// attributes and spaces, the class among others. A changed tag comes out
/// on one line, its attributes as they were written.
const CHANGED: &str = "<form method=get class=\"wide search-form\" action='/buscar'>\n\
    <input\n  maxlength=200 type='search'\n  name='q' id=\"f-q\"\n>\n\
    <select  data-x='1' name = 'make' id=f-make ><option value=''>Todas</option>\
    <option data-n=\"2\" value='Fiat' >Fiat</option></select>\n\
    <details class='more'><summary>Más</summary>\
    <input  type=number name=minSeats></details>\n\
    <input value=true\ttype=CHECKBOX name=opportunitiesOnly>\n\
    <input aria-describedby='nota ayuda' name=\"maxPriceArs\" required/>\n\
    </form>";

#[test]
fn a_form_written_another_way_is_filled_in_alike() {
    let page = refill(
        CHANGED,
        &state(
            &[
                ("q", "hilux"),
                ("make", "fiat"),
                ("minSeats", "7"),
                ("opportunitiesOnly", "true"),
                ("maxPriceArs", "x"),
            ],
            &[("maxPriceArs", "no es un monto")],
        ),
    );
    assert_eq!(
        page,
        "<form method=get class=\"wide search-form\" action='/buscar'>\n\
         <input maxlength=200 type='search' name='q' id=\"f-q\" value=\"hilux\">\n\
         <select  data-x='1' name = 'make' id=f-make ><option value=''>Todas</option>\
         <option data-n=\"2\" value=\"Fiat\" selected>Fiat</option></select>\n\
         <details class=\"more\" open><summary>Más</summary>\
         <input type=number name=minSeats value=\"7\"></details>\n\
         <input value=\"true\" type=\"CHECKBOX\" name=\"opportunitiesOnly\" checked>\n\
         <input aria-describedby=\"error-maxPriceArs nota ayuda\" name=\"maxPriceArs\" required \
         aria-invalid=\"true\" value=\"x\" /><span class=\"field-error\" \
         id=\"error-maxPriceArs\">no es un monto</span>\n\
         </form>"
    );
}
