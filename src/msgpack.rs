//! The edge's own data files (`_edge/*.msgpack`): MessagePack, written by
//! `generate` and read by the edge at every load. Structs are maps with
//! their field names (serde's names, as in the JSON the API writes), so a
//! maintainer can read a file with any MessagePack tool and optional or
//! defaulted fields round-trip; JSON text inside (a Summary) is a string.

use std::io::{Read, Write};

use serde::Serialize;
use serde::de::DeserializeOwned;

/// `Content-Type` of the files, as the manifest lists them.
pub const CONTENT_TYPE: &str = "application/vnd.msgpack";

/// Encodes `value` with named fields.
pub fn to_vec<T: Serialize + ?Sized>(value: &T) -> Result<Vec<u8>, rmp_serde::encode::Error> {
    rmp_serde::to_vec_named(value)
}

/// Encodes `value` as [`to_vec`] does into `writer`, as it is serialized:
/// the edge's files are among a large tree's largest, and a buffer grown
/// to hold one whole was copied at every doubling into fresh pages.
pub fn write<T: Serialize + ?Sized>(
    writer: &mut impl Write,
    value: &T,
) -> Result<(), rmp_serde::encode::Error> {
    rmp_serde::encode::write_named(writer, value)
}

/// Decodes one value from `reader` as it is read: no copy of the file in
/// memory.
pub fn from_read<T: DeserializeOwned>(reader: impl Read) -> Result<T, rmp_serde::decode::Error> {
    rmp_serde::from_read(reader)
}

/// Decodes one value from `bytes`, a whole file read into memory.
pub fn from_slice<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, rmp_serde::decode::Error> {
    rmp_serde::from_slice(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Deserialize;

    #[derive(Debug, PartialEq, Serialize, Deserialize)]
    #[serde(rename_all = "camelCase")]
    struct Sample {
        price_usd: f64,
        note: Option<String>,
        #[serde(default)]
        later: Vec<u32>,
    }

    #[test]
    fn values_round_trip_with_their_field_names() {
        let sample = Sample {
            price_usd: 23_035.97,
            note: None,
            later: vec![1, 2],
        };
        let bytes = to_vec(&sample).expect("encode");
        assert!(bytes.windows(8).any(|name| name == b"priceUsd"));
        let mut written = Vec::new();
        write(&mut written, &sample).expect("encode as it is written");
        assert_eq!(written, bytes);
        assert_eq!(from_read::<Sample>(&bytes[..]).expect("decode"), sample);
        assert_eq!(from_slice::<Sample>(&bytes).expect("decode"), sample);
    }
}
