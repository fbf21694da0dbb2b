mod snapshot;
mod generate;
