//! Sample stage, static data: Chinese makes (quoted in pesos below about
//! USD 40,000) and premium imports quoted in US dollars (rows as in
//! `table_mass.rs`).

use crate::vocab::BodyType::{Coupe, Hatchback, Pickup, Sedan, Suv, Van};

use super::makes::{A, AWD, D, EV, FWD, HY, MH, Make, P, PH, RWD, X4L, m, mu, t};

/// Chinese and premium makes.
#[rustfmt::skip] // a data table reads best one row per line
pub static MAKES: &[Make] = &[
    Make { name: "BYD", code: "byd", models: &[
        m("Dolphin Mini", Hatchback, 4, &[
            t("GL 30 kWh", EV, A, FWD, 6, 75, 15_900),
            t("GS 38 kWh", EV, A, FWD, 6, 75, 17_900),
        ]),
        m("Dolphin", Hatchback, 5, &[
            t("GS 60 kWh", EV, A, FWD, 6, 204, 29_900),
        ]),
        m("Yuan Pro", Suv, 5, &[
            t("GS 50 kWh", EV, A, FWD, 6, 177, 31_900),
        ]),
        m("Song Pro", Suv, 5, &[
            t("1.5 DM-i GS", PH, A, FWD, 6, 197, 34_900),
        ]),
        m("King", Sedan, 5, &[
            t("1.5 DM-i GS", PH, A, FWD, 6, 209, 28_900),
        ]),
        mu("Seal", Sedan, 5, &[
            t("AWD Performance 82 kWh", EV, A, AWD, 9, 530, 54_900),
        ]),
        mu("Shark", Pickup, 5, &[
            t("1.5 DM-O 4x4 GS", PH, A, AWD, 7, 437, 55_900),
        ]),
    ]},
    Make { name: "Haval", code: "hav", models: &[
        m("Jolion", Suv, 5, &[
            t("1.5 Turbo Deluxe DCT", P, A, FWD, 6, 150, 24_900),
            t("1.5 HEV Supreme DHT", HY, A, FWD, 6, 188, 31_900),
        ]),
        m("H6", Suv, 5, &[
            t("1.5 HEV Supreme+ DHT", HY, A, FWD, 6, 243, 39_900),
            t("1.5 PHEV GT AWD DHT", PH, A, AWD, 6, 326, 46_900),
        ]),
    ]},
    Make { name: "GWM", code: "gwm", models: &[
        m("Poer", Pickup, 5, &[
            t("2.0 TD Deluxe 4x4 AT", D, A, X4L, 6, 163, 38_400),
            t("2.4 TD Elite 4x4 AT", D, A, X4L, 6, 184, 43_700),
        ]),
        m("Ora 03", Hatchback, 5, &[
            t("GT 63 kWh", EV, A, FWD, 6, 171, 31_900),
        ]),
        mu("Tank 300", Suv, 5, &[
            t("2.0 Turbo HEV 4x4 AT", HY, A, X4L, 6, 347, 59_900),
        ]),
    ]},
    Make { name: "Mercedes-Benz", code: "mb", models: &[
        mu("Clase A", Sedan, 5, &[
            t("A 200 Progressive 7G-DCT", P, A, FWD, 7, 163, 52_900),
        ]),
        mu("Clase C", Sedan, 5, &[
            t("C 200 Avantgarde 9G-Tronic", MH, A, RWD, 9, 204, 68_900),
            t("C 300 AMG Line 9G-Tronic", MH, A, RWD, 9, 258, 78_500),
        ]),
        mu("GLA", Suv, 5, &[
            t("GLA 200 Progressive 7G-DCT", P, A, FWD, 7, 163, 58_900),
            t("GLA 250 AMG Line 4Matic 8G-DCT", P, A, AWD, 7, 224, 66_500),
        ]),
        mu("GLB", Suv, 7, &[
            t("GLB 200 Progressive 7G-DCT", P, A, FWD, 9, 163, 62_900),
        ]),
        mu("GLC", Suv, 5, &[
            t("GLC 300 4Matic AMG Line 9G-Tronic", MH, A, AWD, 9, 258, 89_900),
            t("GLC 300 Coupé 4Matic AMG Line 9G-Tronic", MH, A, AWD, 9, 258, 95_900),
        ]),
        mu("Clase E", Sedan, 5, &[
            t("E 300 AMG Line 9G-Tronic", MH, A, RWD, 9, 258, 98_000),
        ]),
        m("Sprinter", Van, 3, &[
            t("2.0 TD 417 Furgón 3665 TN AT", D, A, RWD, 2, 170, 55_000),
            t("2.0 TD 517 Combi 19+1 AT", D, A, RWD, 2, 170, 62_000).seats(20),
        ]),
    ]},
    Make { name: "BMW", code: "bmw", models: &[
        mu("Serie 1", Hatchback, 5, &[
            t("120 M Sport Steptronic", P, A, FWD, 8, 170, 52_900),
        ]),
        mu("Serie 3", Sedan, 5, &[
            t("320i Sportline Steptronic", P, A, RWD, 8, 184, 64_900),
            t("330e M Sport Steptronic", PH, A, RWD, 8, 292, 76_900),
            t("M340i xDrive Steptronic", MH, A, AWD, 8, 374, 98_500),
        ]),
        mu("X1", Suv, 5, &[
            t("sDrive20i xLine Steptronic", P, A, FWD, 8, 170, 58_900),
            t("xDrive25e M Sport Steptronic", PH, A, AWD, 8, 245, 66_900),
        ]),
        mu("iX1", Suv, 5, &[
            t("xDrive30 M Sport", EV, A, AWD, 8, 313, 71_900),
        ]),
        mu("X3", Suv, 5, &[
            t("20 xDrive xLine Steptronic", MH, A, AWD, 8, 208, 76_500),
            t("30 xDrive M Sport Steptronic", MH, A, AWD, 8, 258, 84_900),
        ]),
        mu("X5", Suv, 5, &[
            t("xDrive40i M Sport Steptronic", MH, A, AWD, 8, 381, 119_000),
            t("xDrive50e M Sport Steptronic", PH, A, AWD, 8, 489, 134_000),
        ]),
        mu("Serie 4", Coupe, 4, &[
            t("430i Coupé M Sport Steptronic", P, A, RWD, 8, 258, 82_900),
        ]),
    ]},
    Make { name: "Audi", code: "aud", models: &[
        mu("A3", Sedan, 5, &[
            t("Sedán 35 TFSI S tronic", P, A, FWD, 6, 150, 49_900),
            t("S3 Sedán 2.0 TFSI quattro S tronic", P, A, AWD, 6, 333, 72_500),
        ]),
        mu("A4", Sedan, 5, &[
            t("40 TFSI Advanced S tronic", MH, A, FWD, 6, 204, 64_500),
        ]),
        mu("Q3", Suv, 5, &[
            t("35 TFSI S tronic", P, A, FWD, 6, 150, 54_900),
            t("Sportback 40 TFSI quattro S line S tronic", P, A, AWD, 6, 190, 64_900),
        ]),
        mu("Q5", Suv, 5, &[
            t("45 TFSI quattro S tronic", MH, A, AWD, 8, 265, 79_900),
            t("Sportback 45 TFSI quattro S line S tronic", MH, A, AWD, 8, 265, 85_900),
        ]),
        mu("Q8 e-tron", Suv, 5, &[
            t("55 e-tron quattro", EV, A, AWD, 8, 408, 129_000),
        ]),
    ]},
    Make { name: "DS", code: "ds", models: &[
        mu("DS 3", Suv, 5, &[
            t("1.2 PureTech Bastille AT", P, A, FWD, 6, 130, 41_900),
            t("E-Tense Opera", EV, A, FWD, 6, 156, 48_900),
        ]),
        mu("DS 4", Hatchback, 5, &[
            t("1.6 PureTech Trocadero AT", P, A, FWD, 6, 180, 49_900),
        ]),
        mu("DS 7", Suv, 5, &[
            t("1.6 PureTech Rivoli AT", P, A, FWD, 8, 225, 58_900),
            t("E-Tense 4x4 300 Rivoli", PH, A, AWD, 8, 300, 69_900),
        ]),
    ]},
    Make { name: "Volvo", code: "vol", models: &[
        mu("EX30", Suv, 5, &[
            t("Single Motor Extended Range Plus", EV, A, RWD, 7, 272, 44_900),
            t("Twin Motor Performance Ultra", EV, A, AWD, 7, 428, 52_900),
        ]),
        mu("XC40", Suv, 5, &[
            t("B4 Plus Dark AT", MH, A, FWD, 7, 197, 58_900),
        ]),
        mu("EX40", Suv, 5, &[
            t("Twin Motor Ultimate", EV, A, AWD, 7, 408, 71_900),
        ]),
        mu("XC60", Suv, 5, &[
            t("B5 Plus AWD AT", MH, A, AWD, 7, 250, 74_900),
            t("T8 Recharge Ultimate AWD", PH, A, AWD, 7, 455, 89_900),
        ]),
        mu("XC90", Suv, 7, &[
            t("B6 Ultimate AWD AT", MH, A, AWD, 7, 300, 104_000),
            t("T8 Ultimate AWD", PH, A, AWD, 7, 455, 119_000),
        ]),
    ]},
    Make { name: "Porsche", code: "por", models: &[
        mu("Macan", Suv, 5, &[
            t("2.0 Turbo PDK", P, A, AWD, 8, 265, 119_000),
            t("4 Electric", EV, A, AWD, 8, 408, 139_000),
        ]),
        mu("Cayenne", Suv, 5, &[
            t("3.0 V6 Tiptronic S", P, A, AWD, 8, 353, 149_000),
        ]),
        mu("718", Coupe, 2, &[
            t("Cayman 2.0 Turbo PDK", P, A, RWD, 4, 300, 118_000),
        ]),
    ]},
];
