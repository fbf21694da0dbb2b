//! API stage, the operations table after its entry point: the operations
//! `ApiInfo.endpoints` lists (with the entry point itself first), in the
//! service's order: the spec's six, then the market's three.

use super::op::Op;
use super::{catalogue, compare, deals, model_prices, report, reports, search, series, vehicle};

/// Every operation but the entry point, in order.
pub static LISTED: [&dyn Op; 9] = [
    &deals::FindDeals,
    &model_prices::GetModelPrices,
    &search::SearchVehicles,
    &vehicle::GetVehicle,
    &compare::CompareVehicles,
    &catalogue::GetCatalogue,
    &reports::ListMarketReports,
    &report::GetMarketReport,
    &series::GetSeries,
];
