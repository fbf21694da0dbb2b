//! Table encoding, Parquet: a frame's columns written as one Parquet file,
//! column buffers handed to the encoder as they are (no second copy of the
//! table). Types a tool reads without conversion: text as plain UTF-8
//! strings (the Arrow schema in the file says `utf8`, not the `string_view`
//! some readers cannot filter), times as `timestamp[ms, UTC]`, days as
//! `date32`, integers `int64`, numbers `double`. Encoded serially with
//! Zstandard in row groups of a fixed row count, so the bytes never depend
//! on thread scheduling.

use anyhow::{Context, Result};
use polars::prelude::PlSmallStr;
use polars_arrow::array::{Array, BooleanArray, PrimitiveArray, Utf8Array};
use polars_arrow::bitmap::Bitmap;
use polars_arrow::datatypes::{ArrowDataType, ArrowSchema, Field, TimeUnit};
use polars_arrow::offset::OffsetsBuffer;
use polars_arrow::record_batch::RecordBatchT;
use polars_buffer::Buffer;
use polars_parquet::write::{
    CompressionOptions, FileWriter, RowGroupIterator, StatisticsOptions, Version, WriteOptions,
    get_dtype_encoding, schema_to_metadata_key,
};

use super::cells::{Cells, TextCells};

/// Rows per row group: the size polars writes by default, so a reader can
/// skip most of a large table by its statistics.
pub(super) const ROWS_PER_GROUP: usize = 512 * 512;

/// The time zone of every timestamp column.
const UTC: &str = "UTC";

/// Encodes `columns` (name, cells) as a Parquet file.
pub(super) fn encode(columns: Vec<(String, Cells)>) -> Result<Vec<u8>> {
    let height = columns.first().map_or(0, |(_, cells)| cells.len());
    let (fields, arrays): (Vec<Field>, Vec<Box<dyn Array>>) = columns
        .into_iter()
        .map(|(name, cells)| {
            let array = to_array(cells)?;
            let field = Field::new(PlSmallStr::from(name), array.dtype().clone(), true);
            Ok((field, array))
        })
        .collect::<Result<Vec<_>>>()?
        .into_iter()
        .unzip();
    let schema: ArrowSchema = fields.iter().cloned().collect();
    let encodings = fields
        .iter()
        .map(|field| get_dtype_encoding(&field.dtype))
        .collect::<Vec<_>>();
    let options = WriteOptions {
        statistics: StatisticsOptions::default(),
        compression: CompressionOptions::Zstd(None),
        version: Version::V1,
        data_page_size: None,
    };
    let schema_ref = std::sync::Arc::new(schema.clone());
    let groups = (0..height).step_by(ROWS_PER_GROUP).map(|start| {
        let len = ROWS_PER_GROUP.min(height - start);
        let sliced = arrays
            .iter()
            .map(|array| array.sliced(start, len))
            .collect();
        Ok(RecordBatchT::new(len, schema_ref.clone(), sliced))
    });
    let row_groups = RowGroupIterator::try_new(groups, &schema, options, encodings.into())?;
    let mut writer = FileWriter::try_new(Vec::new(), schema.clone(), options)?;
    for group in row_groups {
        writer.write(u64::MAX, group?)?;
    }
    // The Arrow schema readers restore types from: `utf8` for the text
    // columns, whose buffers (64-bit offsets) are `large_utf8` only because
    // that is what the encoder takes; the Parquet columns are the same.
    let declared: ArrowSchema = fields
        .into_iter()
        .map(|field| match field.dtype {
            ArrowDataType::LargeUtf8 => Field::new(field.name, ArrowDataType::Utf8, true),
            _ => field,
        })
        .collect();
    writer.end(Some(vec![schema_to_metadata_key(&declared)]))?;
    Ok(writer.into_inner())
}

/// One column as an Arrow array.
fn to_array(cells: Cells) -> Result<Box<dyn Array>> {
    Ok(match cells {
        Cells::Text(text) => text_array(text)?.boxed(),
        Cells::Integer(v) => PrimitiveArray::<i64>::from(v).boxed(),
        Cells::Number(v) => PrimitiveArray::<f64>::from(v).boxed(),
        Cells::Boolean(v) => BooleanArray::from(v).boxed(),
        Cells::Time(v) => {
            let millis: Vec<Option<i64>> = v.iter().map(|s| s.map(|s| s * 1000)).collect();
            PrimitiveArray::<i64>::from(millis)
                .to(ArrowDataType::Timestamp(
                    TimeUnit::Millisecond,
                    Some(PlSmallStr::from_static(UTC)),
                ))
                .boxed()
        }
        Cells::Date(v) => PrimitiveArray::<i32>::from(v)
            .to(ArrowDataType::Date32)
            .boxed(),
    })
}

/// Text cells as an Arrow string array, taking their buffers as they are.
fn text_array(text: TextCells) -> Result<Utf8Array<i64>> {
    let TextCells {
        bytes,
        offsets,
        present,
    } = text;
    let validity = present
        .iter()
        .any(|present| !present)
        .then(|| Bitmap::from_iter(present.iter().copied()));
    let offsets = OffsetsBuffer::try_from(offsets).context("invariant: text offsets ascend")?;
    let values: Buffer<u8> = bytes.into_bytes().into();
    Utf8Array::try_new(ArrowDataType::LargeUtf8, offsets, values, validity)
        .context("invariant: text cells are UTF-8 at their offsets")
}
