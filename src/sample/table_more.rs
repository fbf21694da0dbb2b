//! Sample stage, static data: more makes with mass-market ranges in
//! Argentina, French, Japanese, American and Korean (rows as in
//! `table_mass.rs`).

use crate::vocab::BodyType::{Hatchback, Mpv, Pickup, Sedan, Suv, Van};

use super::makes::{A, AWD, D, EV, FWD, HY, M, MH, Make, P, PH, X2, X4, X4L, m, mu, t};

/// More mass-market makes.
#[rustfmt::skip] // a data table reads best one row per line
pub static MAKES: &[Make] = &[
    Make { name: "Renault", code: "ren", models: &[
        m("Kwid", Hatchback, 4, &[
            t("1.0 Zen MT", P, M, FWD, 4, 66, 14_000),
            t("1.0 Intens MT", P, M, FWD, 4, 66, 15_000),
            t("1.0 Outsider MT", P, M, FWD, 4, 66, 15_500),
        ]),
        m("Sandero", Hatchback, 5, &[
            t("1.6 Life MT", P, M, FWD, 4, 110, 17_800),
            t("1.6 Intens MT", P, M, FWD, 4, 110, 19_600),
            t("1.6 Intens CVT", P, A, FWD, 4, 110, 20_900),
        ]),
        m("Stepway", Hatchback, 5, &[
            t("1.6 Intens MT", P, M, FWD, 4, 110, 20_700),
            t("1.6 Intens CVT", P, A, FWD, 4, 110, 22_200),
            t("1.6 Iconic CVT", P, A, FWD, 4, 110, 23_300),
        ]),
        m("Logan", Sedan, 5, &[
            t("1.6 Life MT", P, M, FWD, 4, 110, 17_400),
            t("1.6 Intens MT", P, M, FWD, 4, 110, 19_100),
            t("1.6 Intens CVT", P, A, FWD, 4, 110, 20_500),
        ]),
        m("Duster", Suv, 5, &[
            t("1.6 Intens 4x2 MT", P, M, FWD, 4, 115, 23_400),
            t("1.3 TCe Iconic CVT", P, A, FWD, 6, 163, 28_600),
            t("1.3 TCe Iconic 4x4 MT", P, M, AWD, 6, 163, 30_100),
        ]),
        m("Kardian", Suv, 5, &[
            t("1.0 TCe Evolution MT", P, M, FWD, 6, 120, 21_500),
            t("1.0 TCe Techno EDC", P, A, FWD, 6, 120, 24_800),
            t("1.0 TCe Première Edition EDC", P, A, FWD, 6, 120, 26_100),
        ]),
        m("Oroch", Pickup, 5, &[
            t("1.6 Emotion MT", P, M, FWD, 4, 115, 21_000),
            t("1.3 TCe Iconic CVT", P, A, FWD, 4, 163, 26_200),
            t("1.3 TCe Outsider 4x4 MT", P, M, AWD, 4, 163, 27_500),
        ]),
        m("Alaskan", Pickup, 5, &[
            t("2.3 dCi Confort 4x2 MT", D, M, X2, 2, 160, 33_600),
            t("2.3 dCi Emotion 4x4 MT", D, M, X4L, 7, 190, 37_800),
            t("2.3 dCi Iconic 4x4 AT", D, A, X4L, 7, 190, 43_900),
        ]),
        m("Koleos", Suv, 5, &[
            t("2.0 Turbo Iconic 4x2 AT", P, A, FWD, 6, 211, 45_900),
            t("2.0 Turbo Esprit Alpine AWD AT", P, A, AWD, 6, 211, 51_900),
        ]),
        m("Kangoo", Van, 2, &[
            t("1.6 Express Confort MT", P, M, FWD, 2, 115, 19_300),
            t("1.5 dCi Express Emotion MT", D, M, FWD, 2, 90, 21_700),
        ]),
        m("Master", Van, 3, &[
            t("2.3 dCi Furgón L2H2 MT", D, M, FWD, 2, 135, 42_500),
        ]),
    ]},
    Make { name: "Citroën", code: "cit", models: &[
        m("C3", Hatchback, 5, &[
            t("1.2 Live MT", P, M, FWD, 2, 82, 16_800),
            t("1.2 Feel MT", P, M, FWD, 2, 82, 18_100),
            t("1.6 Feel Pack AT", P, A, FWD, 4, 115, 20_700),
            t("1.0 T200 Shine CVT", P, A, FWD, 4, 120, 21_900),
        ]),
        m("C3 Aircross", Suv, 5, &[
            t("1.0 T200 Feel CVT", P, A, FWD, 6, 120, 24_900),
            t("1.0 T200 Shine CVT", P, A, FWD, 6, 120, 26_800),
            t("1.0 T200 Shine 7 Asientos CVT", P, A, FWD, 6, 120, 27_600).seats(7),
        ]),
        m("Basalt", Suv, 5, &[
            t("1.0 T200 Feel CVT", P, A, FWD, 6, 120, 23_600),
            t("1.0 T200 Shine CVT", P, A, FWD, 6, 120, 25_300),
        ]),
        m("C5 Aircross", Suv, 5, &[
            t("1.6 THP Shine AT", P, A, FWD, 6, 165, 41_800),
        ]),
        m("Berlingo", Van, 2, &[
            t("1.6 VTi Business MT", P, M, FWD, 2, 115, 19_800),
            t("1.6 HDi Business MT", D, M, FWD, 2, 92, 21_300),
        ]),
        m("Jumpy", Van, 3, &[
            t("1.6 HDi Business MT", D, M, FWD, 2, 115, 30_400),
        ]),
    ]},
    Make { name: "Nissan", code: "nis", models: &[
        m("Frontier", Pickup, 5, &[
            t("2.3 TD S 4x2 MT", D, M, X2, 7, 160, 33_900),
            t("2.3 TD XE 4x2 AT", D, A, X2, 7, 190, 37_900),
            t("2.3 TD LE 4x4 AT", D, A, X4L, 7, 190, 45_100),
            t("2.3 TD PRO-4X 4x4 AT", D, A, X4L, 7, 190, 47_800),
            t("2.3 TD Platinum 4x4 AT", D, A, X4L, 7, 190, 49_500),
        ]),
        m("Kicks", Suv, 5, &[
            t("1.6 Sense MT", P, M, FWD, 6, 120, 22_100),
            t("1.6 Advance CVT", P, A, FWD, 6, 120, 25_300),
            t("1.6 Exclusive CVT", P, A, FWD, 6, 120, 27_600),
        ]),
        m("Versa", Sedan, 5, &[
            t("1.6 Sense MT", P, M, FWD, 6, 118, 19_800),
            t("1.6 Advance CVT", P, A, FWD, 6, 118, 22_600),
            t("1.6 Exclusive CVT", P, A, FWD, 6, 118, 24_700),
        ]),
        m("Sentra", Sedan, 5, &[
            t("2.0 Advance CVT", P, A, FWD, 6, 145, 29_800),
            t("2.0 Exclusive CVT", P, A, FWD, 6, 145, 33_100),
        ]),
        mu("X-Trail", Suv, 5, &[
            t("1.5 e-Power e-4ORCE Exclusive", HY, A, AWD, 7, 213, 58_900),
        ]),
    ]},
    Make { name: "Honda", code: "hon", models: &[
        m("HR-V", Suv, 5, &[
            t("1.5 LX CVT", P, A, FWD, 6, 121, 29_900),
            t("1.5 EX CVT", P, A, FWD, 6, 121, 32_400),
            t("1.5 EXL CVT", P, A, FWD, 6, 121, 35_100),
        ]),
        m("City", Sedan, 5, &[
            t("1.5 LX CVT", P, A, FWD, 6, 121, 23_900),
            t("1.5 EX CVT", P, A, FWD, 6, 121, 25_800),
            t("1.5 EXL CVT", P, A, FWD, 6, 121, 27_200),
        ]),
        m("City Hatchback", Hatchback, 5, &[
            t("1.5 EX CVT", P, A, FWD, 6, 121, 25_500),
            t("1.5 EXL CVT", P, A, FWD, 6, 121, 26_900),
        ]),
        m("ZR-V", Suv, 5, &[
            t("2.0 Touring CVT", P, A, FWD, 8, 158, 39_900),
        ]),
        mu("CR-V", Suv, 5, &[
            t("1.5 Turbo EXL AWD CVT", P, A, AWD, 8, 190, 56_900),
            t("2.0 e:HEV Touring AWD", HY, A, AWD, 8, 204, 64_900),
        ]),
        mu("Civic", Sedan, 5, &[
            t("2.0 e:HEV Touring", HY, A, FWD, 8, 204, 49_900),
        ]),
    ]},
    Make { name: "Jeep", code: "jee", models: &[
        m("Renegade", Suv, 5, &[
            t("1.3 T270 Sport AT", P, A, FWD, 6, 175, 27_400),
            t("1.3 T270 Longitude AT", P, A, FWD, 6, 175, 30_200),
            t("1.3 T270 Trailhawk 4x4 AT", P, A, X4, 7, 175, 32_900),
        ]),
        m("Compass", Suv, 5, &[
            t("1.3 T270 Sport AT", P, A, FWD, 6, 175, 33_100),
            t("1.3 T270 Longitude AT", P, A, FWD, 7, 175, 36_200),
            t("1.3 T270 Limited AT", P, A, FWD, 7, 175, 39_800),
            t("1.3 T270 Serie S AT", P, A, FWD, 7, 175, 41_400),
            t("2.0 TD Trailhawk 4x4 AT", D, A, X4, 7, 200, 45_900),
            t("1.3 4xe S Plug-in Hybrid AT", PH, A, AWD, 7, 240, 52_800),
        ]),
        m("Commander", Suv, 7, &[
            t("1.3 T270 Limited AT", P, A, FWD, 7, 175, 44_200),
            t("1.3 T270 Overland AT", P, A, FWD, 7, 175, 48_700),
            t("2.0 TD Overland 4x4 AT", D, A, X4, 7, 200, 54_100),
        ]),
        m("Grand Cherokee", Suv, 5, &[
            t("2.0 4xe Limited Plug-in Hybrid AT", PH, A, AWD, 8, 380, 61_000),
        ]),
        mu("Wrangler", Suv, 5, &[
            t("2.0 Turbo Sahara 4x4 AT", P, A, X4L, 6, 272, 72_900),
            t("2.0 Turbo Rubicon 4x4 AT", P, A, X4L, 6, 272, 79_900),
        ]),
        mu("Gladiator", Pickup, 5, &[
            t("3.6 V6 Rubicon 4x4 AT", P, A, X4L, 6, 285, 84_500),
        ]),
    ]},
    Make { name: "RAM", code: "ram", models: &[
        m("Rampage", Pickup, 5, &[
            t("2.0 Turbo Laramie 4x4 AT", P, A, X4, 6, 272, 39_900),
            t("2.0 TD Rebel 4x4 AT", D, A, X4, 6, 170, 42_400),
            t("2.0 Turbo R/T 4x4 AT", P, A, X4, 6, 272, 43_900),
        ]),
        m("Dakota", Pickup, 5, &[
            t("2.2 TD Warlock 4x4 AT", D, A, X4L, 6, 200, 43_500),
            t("2.2 TD Laramie 4x4 AT", D, A, X4L, 6, 200, 46_200),
        ]),
        mu("1500", Pickup, 5, &[
            t("5.7 V8 Laramie 4x4 AT", P, A, X4L, 6, 401, 79_900),
            t("3.0 Hurricane Rebel 4x4 AT", P, A, X4L, 6, 420, 86_500),
        ]),
        mu("2500", Pickup, 5, &[
            t("6.7 TD Laramie 4x4 AT", D, A, X4L, 6, 370, 99_000),
        ]),
    ]},
    Make { name: "Suzuki", code: "suz", models: &[
        m("Swift", Hatchback, 5, &[
            t("1.2 GL MT", P, M, FWD, 6, 83, 16_900),
            t("1.2 GLX Hybrid CVT", MH, A, FWD, 6, 83, 18_900),
        ]),
        m("Vitara", Suv, 5, &[
            t("1.4 Boosterjet GLX AT", P, A, FWD, 7, 140, 29_800),
            t("1.5 Hybrid GLX AllGrip AT", MH, A, AWD, 7, 102, 32_400),
        ]),
        m("Jimny", Suv, 4, &[
            t("1.5 GLX 4x4 MT", P, M, X4L, 6, 102, 29_900),
            t("1.5 GLX 4x4 AT", P, A, X4L, 6, 102, 31_400),
            t("5 Puertas 1.5 GLX 4x4 AT", P, A, X4L, 6, 102, 33_900),
        ]),
        m("S-Cross", Suv, 5, &[
            t("1.4 Boosterjet AllGrip AT", P, A, AWD, 7, 140, 34_200),
        ]),
    ]},
    Make { name: "Mitsubishi", code: "mit", models: &[
        m("L200", Pickup, 5, &[
            t("2.4 TD GLX 4x2 MT", D, M, X2, 7, 181, 34_800),
            t("2.4 TD GLS 4x4 AT", D, A, X4L, 7, 181, 44_700),
        ]),
        m("Triton", Pickup, 5, &[
            t("2.4 BiTurbo GLS 4x4 AT", D, A, X4L, 7, 204, 47_900),
        ]),
        m("Eclipse Cross", Suv, 5, &[
            t("1.5 Turbo GT CVT", P, A, FWD, 7, 150, 36_500),
        ]),
        mu("Outlander", Suv, 7, &[
            t("2.5 GT S-AWC CVT", P, A, AWD, 7, 181, 47_900),
        ]),
    ]},
    Make { name: "Hyundai", code: "hyu", models: &[
        m("HB20", Hatchback, 5, &[
            t("1.6 Comfort Plus MT", P, M, FWD, 2, 123, 18_500),
            t("1.6 Platinum Plus AT", P, A, FWD, 6, 123, 21_800),
        ]),
        m("HB20S", Sedan, 5, &[
            t("1.6 Platinum Plus AT", P, A, FWD, 6, 123, 22_300),
        ]),
        m("Creta", Suv, 5, &[
            t("1.5 Safety IVT", P, A, FWD, 6, 115, 27_200),
            t("1.5 Limited IVT", P, A, FWD, 6, 115, 30_900),
            t("1.0 T-GDi Ultimate DCT", P, A, FWD, 6, 120, 32_800),
        ]),
        m("Tucson", Suv, 5, &[
            t("2.0 Style AT", P, A, FWD, 6, 156, 39_500),
            t("1.6 T-GDi Hybrid Ultimate AWD AT", HY, A, AWD, 7, 230, 49_800),
        ]),
        mu("Santa Fe", Suv, 7, &[
            t("1.6 T-GDi Hybrid Calligraphy AWD AT", HY, A, AWD, 9, 230, 68_500),
        ]),
        mu("Kona", Suv, 5, &[
            t("1.6 Hybrid Ultimate DCT", HY, A, FWD, 7, 141, 40_900),
            t("Electric 64 kWh Ultimate", EV, A, FWD, 7, 204, 49_900),
        ]),
        mu("Ioniq 5", Suv, 5, &[
            t("Limited AWD", EV, A, AWD, 8, 325, 62_900),
        ]),
    ]},
    Make { name: "Kia", code: "kia", models: &[
        m("K3", Sedan, 5, &[
            t("1.6 EX IVT", P, A, FWD, 6, 123, 24_500),
            t("1.6 SX IVT", P, A, FWD, 6, 123, 26_800),
        ]),
        m("K3 Cross", Hatchback, 5, &[
            t("1.6 GT-Line IVT", P, A, FWD, 6, 123, 27_300),
        ]),
        m("Seltos", Suv, 5, &[
            t("1.6 EX IVT", P, A, FWD, 6, 123, 28_500),
            t("1.6 SX IVT", P, A, FWD, 6, 123, 31_200),
            t("1.6 GT-Line IVT", P, A, FWD, 6, 123, 32_900),
        ]),
        m("Sportage", Suv, 5, &[
            t("2.0 LX AT", P, A, FWD, 6, 156, 36_800),
            t("2.0 EX AT", P, A, FWD, 6, 156, 39_900),
            t("2.0 GT-Line AWD AT", P, A, AWD, 7, 156, 42_800),
            t("1.6 T-GDi HEV SX AT", HY, A, FWD, 7, 230, 47_600),
        ]),
        mu("Sorento", Suv, 7, &[
            t("1.6 T-GDi HEV SX AWD AT", HY, A, AWD, 7, 230, 62_900),
        ]),
        mu("Carnival", Mpv, 8, &[
            t("3.5 V6 EX AT", P, A, FWD, 7, 272, 69_900),
            t("1.6 T-GDi HEV Signature AT", HY, A, FWD, 7, 245, 78_500),
        ]),
        mu("EV6", Suv, 5, &[
            t("GT-Line AWD", EV, A, AWD, 8, 325, 64_900),
        ]),
    ]},
    Make { name: "Chery", code: "che", models: &[
        m("Tiggo 2 Pro", Suv, 5, &[
            t("1.5 Comfort MT", P, M, FWD, 2, 116, 17_900),
            t("1.5 Luxury CVT", P, A, FWD, 6, 116, 19_800),
        ]),
        m("Tiggo 4", Suv, 5, &[
            t("1.5 Comfort MT", P, M, FWD, 6, 115, 20_900),
            t("1.5 Luxury CVT", P, A, FWD, 6, 115, 23_600),
            t("1.6 Turbo Pro Luxury DCT", P, A, FWD, 6, 147, 25_800),
            t("1.5 Hybrid Pro Luxury DHT", HY, A, FWD, 6, 204, 28_400),
        ]),
        m("Tiggo 7", Suv, 5, &[
            t("1.6 Turbo Pro Luxury DCT", P, A, FWD, 6, 197, 30_900),
            t("1.5 PHEV Pro Luxury DHT", PH, A, FWD, 6, 326, 37_900),
        ]),
        m("Tiggo 8", Suv, 7, &[
            t("1.6 Turbo Pro Luxury DCT", P, A, FWD, 6, 197, 35_800),
            t("2.0 Turbo Pro Max AWD DCT", P, A, AWD, 6, 254, 41_500),
        ]),
    ]},
];
