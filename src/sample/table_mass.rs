//! Sample stage, static data: makes with mass-market ranges in Argentina
//! (most models quoted in pesos). Rows: trim name, fuel, gearbox, drivetrain,
//! airbags, power in CV, list price in USD (see `makes.rs`).

use crate::vocab::BodyType::{Coupe, Hatchback, Mpv, Pickup, Sedan, Suv, Van};

use super::makes::{A, AWD, D, EV, FWD, HY, M, Make, P, RWD, X2, X4, X4L, m, mu, t};

/// Mass-market makes.
#[rustfmt::skip] // a data table reads best one row per line
pub static MAKES: &[Make] = &[
    Make { name: "Toyota", code: "tyt", models: &[
        m("Hilux", Pickup, 5, &[
            t("2.4 TDI DX 4x2 MT", D, M, X2, 3, 150, 33_900),
            t("2.4 TDI DX 4x4 MT", D, M, X4L, 3, 150, 37_500),
            t("2.8 TDI SR 4x2 AT", D, A, X2, 7, 204, 40_900),
            t("2.8 TDI SRV 4x4 AT", D, A, X4L, 7, 204, 47_800),
            t("2.8 TDI SRX 4x4 AT", D, A, X4L, 7, 204, 52_300),
            t("2.8 TDI GR-Sport 4x4 AT", D, A, X4L, 7, 224, 58_900),
        ]),
        m("SW4", Suv, 7, &[
            t("2.7 SRX 4x2 AT", P, A, RWD, 7, 166, 52_900),
            t("2.8 TDI SRX 4x4 AT", D, A, X4L, 7, 204, 58_500),
            t("2.8 TDI Diamond 4x4 AT", D, A, X4L, 7, 204, 60_900),
            t("2.8 TDI GR-Sport 4x4 AT", D, A, X4L, 7, 224, 62_500),
        ]),
        m("Corolla", Sedan, 5, &[
            t("2.0 XLI CVT", P, A, FWD, 7, 170, 27_900),
            t("2.0 XEI CVT", P, A, FWD, 7, 170, 30_500),
            t("1.8 XEI Hybrid eCVT", HY, A, FWD, 7, 122, 34_500),
            t("2.0 SEG CVT", P, A, FWD, 7, 170, 33_900),
            t("1.8 SEG Hybrid eCVT", HY, A, FWD, 7, 122, 37_200),
            t("2.0 GR-Sport CVT", P, A, FWD, 7, 170, 35_800),
        ]),
        m("Corolla Cross", Suv, 5, &[
            t("2.0 XLI CVT", P, A, FWD, 7, 170, 31_200),
            t("2.0 XEI CVT", P, A, FWD, 7, 170, 34_000),
            t("1.8 XEI Hybrid eCVT", HY, A, FWD, 7, 122, 37_300),
            t("2.0 GR-Sport CVT", P, A, FWD, 7, 170, 39_400),
            t("1.8 SEG Hybrid eCVT", HY, A, FWD, 7, 122, 40_500),
        ]),
        m("Yaris", Hatchback, 5, &[
            t("1.5 XS MT", P, M, FWD, 7, 107, 19_900),
            t("1.5 XS CVT", P, A, FWD, 7, 107, 21_300),
            t("1.5 XLS CVT", P, A, FWD, 7, 107, 23_400),
            t("1.5 S CVT", P, A, FWD, 7, 107, 24_800),
        ]),
        m("Yaris Sedán", Sedan, 5, &[
            t("1.5 XLS CVT", P, A, FWD, 7, 107, 23_900),
            t("1.5 XLS Pack CVT", P, A, FWD, 7, 107, 25_200),
        ]),
        m("Yaris Cross", Suv, 5, &[
            t("1.5 XLI CVT", P, A, FWD, 6, 107, 26_900),
            t("1.5 XEI Hybrid eCVT", HY, A, FWD, 6, 116, 31_500),
            t("1.5 SEG Hybrid eCVT", HY, A, FWD, 6, 116, 33_900),
        ]),
        m("RAV4", Suv, 5, &[
            t("2.5 Hybrid XLE eCVT AWD", HY, A, AWD, 7, 222, 52_000),
            t("2.5 Hybrid Limited eCVT AWD", HY, A, AWD, 7, 222, 57_900),
        ]),
        m("Hiace", Van, 3, &[
            t("2.8 TDI Furgón L1H1 AT", D, A, RWD, 3, 177, 44_900),
            t("2.8 TDI Furgón L2H2 MT", D, M, RWD, 3, 177, 46_500),
            t("2.8 TDI Commuter AT", D, A, RWD, 3, 177, 55_900).seats(15),
        ]),
        mu("Land Cruiser 300", Suv, 7, &[
            t("3.3 V6 TDI GR-S 4x4 AT", D, A, X4L, 10, 309, 129_000),
            t("3.3 V6 TDI ZX 4x4 AT", D, A, X4L, 10, 309, 138_000),
        ]),
        mu("GR86", Coupe, 4, &[
            t("2.4 Boxer MT", P, M, RWD, 7, 234, 62_000),
            t("2.4 Boxer AT", P, A, RWD, 7, 234, 64_500),
        ]),
    ]},
    Make { name: "Volkswagen", code: "vw", models: &[
        m("Amarok", Pickup, 5, &[
            t("2.0 TDI Trendline 4x2 MT", D, M, X2, 2, 140, 33_500),
            t("2.0 TDI Comfortline 4x2 AT", D, A, X2, 4, 180, 38_900),
            t("2.0 TDI Highline 4x4 AT", D, A, AWD, 6, 180, 45_500),
            t("3.0 V6 TDI Highline 4Motion AT", D, A, AWD, 6, 258, 52_900),
            t("3.0 V6 TDI Extreme 4Motion AT", D, A, AWD, 6, 258, 57_400),
            t("3.0 V6 TDI Black Style 4Motion AT", D, A, AWD, 6, 258, 58_900),
        ]),
        m("Taos", Suv, 5, &[
            t("1.4 TSI Comfortline Tiptronic", P, A, FWD, 6, 150, 33_700),
            t("1.4 TSI Highline Tiptronic", P, A, FWD, 6, 150, 37_900),
            t("1.4 TSI Hero Tiptronic", P, A, FWD, 6, 150, 39_500),
        ]),
        m("T-Cross", Suv, 5, &[
            t("200 TSI Trendline MT", P, M, FWD, 6, 116, 23_800),
            t("200 TSI Comfortline AT", P, A, FWD, 6, 116, 27_400),
            t("200 TSI Highline AT", P, A, FWD, 6, 116, 30_100),
            t("250 TSI Extreme AT", P, A, FWD, 6, 150, 33_000),
        ]),
        m("Nivus", Suv, 5, &[
            t("200 TSI Comfortline AT", P, A, FWD, 6, 116, 26_100),
            t("200 TSI Highline AT", P, A, FWD, 6, 116, 28_700),
            t("200 TSI Outfit AT", P, A, FWD, 6, 116, 29_500),
        ]),
        m("Polo", Hatchback, 5, &[
            t("170 MSI Track MT", P, M, FWD, 4, 84, 17_900),
            t("170 TSI Trendline MT", P, M, FWD, 6, 116, 20_500),
            t("170 TSI Comfortline AT", P, A, FWD, 6, 116, 23_400),
            t("170 TSI Highline AT", P, A, FWD, 6, 116, 25_600),
            t("GTS 1.4 TSI AT", P, A, FWD, 6, 150, 29_800),
        ]),
        m("Virtus", Sedan, 5, &[
            t("170 TSI Trendline MT", P, M, FWD, 6, 116, 21_300),
            t("170 TSI Comfortline AT", P, A, FWD, 6, 116, 24_200),
            t("170 TSI Highline AT", P, A, FWD, 6, 116, 26_500),
            t("250 TSI Exclusive AT", P, A, FWD, 6, 150, 29_300),
        ]),
        m("Tiguan", Suv, 7, &[
            t("Allspace 2.0 TSI Life 4Motion DSG", P, A, AWD, 7, 220, 47_900),
            t("Allspace 2.0 TSI R-Line 4Motion DSG", P, A, AWD, 7, 220, 54_800),
        ]),
        m("Saveiro", Pickup, 2, &[
            t("1.6 Cabina Simple Trendline MT", P, M, FWD, 2, 110, 17_200),
            t("1.6 Cabina Extendida Comfortline MT", P, M, FWD, 2, 110, 18_900),
            t("1.6 Cabina Doble Extreme MT", P, M, FWD, 2, 110, 21_400).seats(5),
        ]),
        mu("Golf", Hatchback, 5, &[
            t("GTI 2.0 TSI DSG", P, A, FWD, 7, 245, 58_900),
        ]),
        mu("ID.4", Suv, 5, &[
            t("Pro Performance", EV, A, RWD, 9, 204, 59_900),
        ]),
    ]},
    Make { name: "Ford", code: "frd", models: &[
        m("Ranger", Pickup, 5, &[
            t("2.0 TD XL 4x2 MT", D, M, X2, 6, 170, 34_200),
            t("2.0 TD XLS 4x2 AT", D, A, X2, 6, 170, 38_600),
            t("2.0 TD XLS 4x4 AT", D, A, X4L, 6, 170, 41_900),
            t("2.0 TD XLT 4x4 AT", D, A, X4L, 6, 170, 45_300),
            t("3.0 V6 TD Limited+ 4x4 AT", D, A, X4L, 9, 250, 56_200),
        ]),
        mu("Ranger Raptor", Pickup, 5, &[
            t("3.0 V6 Biturbo 4x4 AT", P, A, X4L, 9, 397, 82_000),
        ]),
        m("Territory", Suv, 5, &[
            t("1.5 Turbo Trend AT", P, A, FWD, 6, 150, 31_900),
            t("1.5 Turbo Titanium AT", P, A, FWD, 6, 150, 36_400),
        ]),
        m("Bronco Sport", Suv, 5, &[
            t("1.5 EcoBoost Big Bend AT", P, A, AWD, 7, 181, 40_500),
            t("2.0 EcoBoost Badlands AT", P, A, AWD, 7, 250, 48_900),
        ]),
        m("Maverick", Pickup, 5, &[
            t("2.5 Hybrid XLT eCVT", HY, A, FWD, 6, 194, 42_900),
            t("2.0 EcoBoost XLT AWD AT", P, A, AWD, 6, 253, 44_900),
            t("2.0 EcoBoost Lariat AWD AT", P, A, AWD, 6, 253, 47_200),
            t("2.0 EcoBoost Tremor AWD AT", P, A, AWD, 6, 253, 49_600),
        ]),
        m("Kuga", Suv, 5, &[
            t("2.5 Hybrid Titanium eCVT", HY, A, FWD, 7, 190, 47_500),
        ]),
        m("Transit", Van, 3, &[
            t("2.0 TD Furgón L3H2 MT", D, M, RWD, 2, 170, 43_000),
            t("2.0 TD Minibus 17+1 MT", D, M, RWD, 2, 170, 52_500).seats(18),
        ]),
        mu("Mustang", Coupe, 4, &[
            t("5.0 V8 GT Performance AT", P, A, RWD, 8, 446, 89_000),
            t("5.0 V8 Dark Horse AT", P, A, RWD, 8, 500, 112_000),
        ]),
        mu("Bronco", Suv, 5, &[
            t("2.7 V6 Wildtrak 4x4 AT", P, A, X4L, 6, 335, 92_000),
        ]),
    ]},
    Make { name: "Chevrolet", code: "chv", models: &[
        m("Onix", Hatchback, 5, &[
            t("1.0 Turbo LT MT", P, M, FWD, 6, 116, 18_900),
            t("1.0 Turbo LT AT", P, A, FWD, 6, 116, 20_600),
            t("1.0 Turbo LTZ AT", P, A, FWD, 6, 116, 22_300),
            t("1.0 Turbo RS AT", P, A, FWD, 6, 116, 23_400),
            t("1.0 Turbo Premier AT", P, A, FWD, 6, 116, 23_900),
        ]),
        m("Onix Plus", Sedan, 5, &[
            t("1.0 Turbo LT MT", P, M, FWD, 6, 116, 19_500),
            t("1.0 Turbo LT AT", P, A, FWD, 6, 116, 21_200),
            t("1.0 Turbo LTZ AT", P, A, FWD, 6, 116, 22_900),
            t("1.0 Turbo Midnight AT", P, A, FWD, 6, 116, 24_100),
            t("1.0 Turbo Premier AT", P, A, FWD, 6, 116, 24_500),
        ]),
        m("Tracker", Suv, 5, &[
            t("1.2 Turbo MT", P, M, FWD, 6, 132, 24_800),
            t("1.2 Turbo LT AT", P, A, FWD, 6, 132, 27_000),
            t("1.2 Turbo LTZ AT", P, A, FWD, 6, 132, 29_300),
            t("1.2 Turbo RS AT", P, A, FWD, 6, 132, 31_000),
            t("1.2 Turbo Premier AT", P, A, FWD, 6, 132, 31_500),
        ]),
        m("S10", Pickup, 5, &[
            t("2.8 TD LS 4x2 MT", D, M, X2, 2, 200, 33_800),
            t("2.8 TD LT 4x2 AT", D, A, X2, 7, 200, 38_900),
            t("2.8 TD LT 4x4 AT", D, A, X4L, 7, 200, 42_100),
            t("2.8 TD LTZ 4x4 AT", D, A, X4L, 7, 200, 46_700),
            t("2.8 TD Z71 4x4 AT", D, A, X4L, 7, 200, 49_300),
            t("2.8 TD High Country 4x4 AT", D, A, X4L, 7, 200, 50_900),
        ]),
        m("Montana", Pickup, 5, &[
            t("1.2 Turbo LT MT", P, M, FWD, 6, 133, 23_100),
            t("1.2 Turbo LTZ AT", P, A, FWD, 6, 133, 26_800),
            t("1.2 Turbo Premier AT", P, A, FWD, 6, 133, 28_500),
            t("1.2 Turbo RS AT", P, A, FWD, 6, 133, 28_900),
        ]),
        m("Spin", Mpv, 7, &[
            t("1.8 LT MT", P, M, FWD, 2, 105, 21_800),
            t("1.8 LT AT", P, A, FWD, 2, 105, 23_600),
            t("1.8 Activ AT", P, A, FWD, 2, 105, 25_200),
            t("1.8 Premier AT", P, A, FWD, 6, 105, 25_700),
        ]),
        m("Trailblazer", Suv, 7, &[
            t("2.8 TD LTZ 4x4 AT", D, A, X4L, 7, 200, 55_900),
            t("2.8 TD Premier 4x4 AT", D, A, X4L, 7, 200, 59_200),
        ]),
        m("Equinox", Suv, 5, &[
            t("1.5 Turbo RS AWD AT", P, A, AWD, 6, 172, 44_900),
        ]),
        mu("Equinox EV", Suv, 5, &[
            t("RS AWD", EV, A, AWD, 8, 294, 61_900),
        ]),
        mu("Silverado", Pickup, 5, &[
            t("5.3 V8 LTZ 4x4 AT", P, A, X4L, 7, 355, 98_000),
            t("3.0 TD High Country 4x4 AT", D, A, X4L, 7, 277, 104_000),
        ]),
    ]},
    Make { name: "Fiat", code: "fia", models: &[
        m("Cronos", Sedan, 5, &[
            t("1.3 Like MT", P, M, FWD, 2, 99, 14_900),
            t("1.3 Drive MT", P, M, FWD, 2, 99, 16_400),
            t("1.3 Drive CVT", P, A, FWD, 4, 99, 18_300),
            t("1.3 Precision CVT", P, A, FWD, 4, 99, 19_800),
        ]),
        m("Argo", Hatchback, 5, &[
            t("1.3 Drive MT", P, M, FWD, 2, 99, 15_900),
            t("1.3 Drive CVT", P, A, FWD, 4, 99, 17_700),
            t("1.3 Trekking CVT", P, A, FWD, 4, 99, 18_800),
        ]),
        m("Pulse", Suv, 5, &[
            t("1.3 Drive MT", P, M, FWD, 4, 99, 20_100),
            t("1.3 Drive CVT", P, A, FWD, 4, 99, 21_900),
            t("200 Turbo Audace CVT", P, A, FWD, 6, 130, 24_200),
            t("200 Turbo Impetus CVT", P, A, FWD, 6, 130, 26_300),
            t("Abarth 270 Turbo AT", P, A, FWD, 6, 185, 29_900),
        ]),
        m("Fastback", Suv, 5, &[
            t("200 Turbo Audace CVT", P, A, FWD, 6, 130, 27_100),
            t("270 Turbo Impetus AT", P, A, FWD, 6, 185, 30_400),
            t("Abarth 270 Turbo AT", P, A, FWD, 6, 185, 32_800),
        ]),
        m("Strada", Pickup, 2, &[
            t("1.3 Freedom Cabina Simple MT", P, M, FWD, 2, 99, 17_900),
            t("1.3 Freedom Cabina Doble MT", P, M, FWD, 2, 99, 19_800).seats(5),
            t("1.3 Volcano Cabina Doble CVT", P, A, FWD, 4, 99, 22_600).seats(5),
            t("200 Turbo Ranch CVT", P, A, FWD, 6, 130, 25_400).seats(5),
            t("200 Turbo Ultra CVT", P, A, FWD, 6, 130, 25_900).seats(5),
        ]),
        m("Toro", Pickup, 5, &[
            t("1.3 Turbo Freedom 4x2 AT", P, A, FWD, 4, 175, 29_800),
            t("2.2 TD Volcano 4x4 AT", D, A, X4, 6, 200, 37_600),
            t("2.2 TD Ultra 4x4 AT", D, A, X4, 6, 200, 40_200),
            t("2.2 TD Ranch 4x4 AT", D, A, X4, 6, 200, 41_100),
        ]),
        m("Titano", Pickup, 5, &[
            t("2.2 TD Endurance 4x4 MT", D, M, X4L, 6, 200, 33_200),
            t("2.2 TD Freedom 4x4 MT", D, M, X4L, 6, 200, 36_100),
            t("2.2 TD Ranch 4x4 AT", D, A, X4L, 6, 200, 41_900),
        ]),
        m("Mobi", Hatchback, 4, &[
            t("1.0 Like MT", P, M, FWD, 2, 75, 13_900),
            t("1.0 Trekking MT", P, M, FWD, 2, 75, 14_900),
        ]),
        m("Fiorino", Van, 2, &[
            t("1.4 Endurance MT", P, M, FWD, 2, 87, 15_900),
        ]),
    ]},
    Make { name: "Peugeot", code: "peu", models: &[
        m("208", Hatchback, 5, &[
            t("1.6 Like MT", P, M, FWD, 2, 116, 18_200),
            t("1.6 Active MT", P, M, FWD, 4, 116, 19_700),
            t("1.6 Allure MT", P, M, FWD, 6, 116, 21_100),
            t("1.6 Allure AT", P, A, FWD, 6, 116, 22_900),
            t("1.0 T200 Allure CVT", P, A, FWD, 6, 120, 23_800),
            t("1.0 T200 GT CVT", P, A, FWD, 6, 120, 25_600),
        ]),
        m("2008", Suv, 5, &[
            t("1.0 T200 Active CVT", P, A, FWD, 6, 120, 25_400),
            t("1.0 T200 Allure CVT", P, A, FWD, 6, 120, 27_900),
            t("1.0 T200 GT CVT", P, A, FWD, 6, 120, 30_200),
        ]),
        m("3008", Suv, 5, &[
            t("1.6 THP Allure AT", P, A, FWD, 6, 165, 41_500),
            t("1.6 THP GT AT", P, A, FWD, 6, 165, 45_800),
        ]),
        m("408", Sedan, 5, &[
            t("1.6 THP Allure AT", P, A, FWD, 6, 165, 36_500),
            t("1.6 THP GT AT", P, A, FWD, 6, 165, 39_900),
        ]),
        m("Partner", Van, 2, &[
            t("1.6 HDi Confort MT", D, M, FWD, 2, 92, 20_900),
            t("1.6 HDi Confort Plus MT", D, M, FWD, 2, 92, 22_300),
        ]),
        m("Partner Patagónica", Mpv, 5, &[
            t("1.6 VTi Patagónica MT", P, M, FWD, 2, 115, 21_900),
        ]),
        m("Expert", Van, 3, &[
            t("1.6 HDi Premium MT", D, M, FWD, 2, 115, 30_100),
        ]),
    ]},
];
