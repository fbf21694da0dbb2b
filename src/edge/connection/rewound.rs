//! Edge stage, a connection handed on: the bytes the fast lane read but did
//! not answer, given back to hyper before the rest of the stream.

use std::io;
use std::pin::Pin;
use std::task::{Context, Poll};

use axum::body::Bytes;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};

/// `stream` with `read` put back in front of it.
#[derive(Debug)]
pub struct Rewound<S> {
    read: Bytes,
    stream: S,
}

impl<S> Rewound<S> {
    /// `stream`, whose next bytes read are `read`.
    pub fn new(read: Bytes, stream: S) -> Rewound<S> {
        Rewound { read, stream }
    }
}

impl<S: AsyncRead + Unpin> AsyncRead for Rewound<S> {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        if self.read.is_empty() {
            return Pin::new(&mut self.stream).poll_read(cx, buf);
        }
        let given = self.read.len().min(buf.remaining());
        buf.put_slice(&self.read.split_to(given));
        Poll::Ready(Ok(()))
    }
}

impl<S: AsyncWrite + Unpin> AsyncWrite for Rewound<S> {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.stream).poll_write(cx, buf)
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.stream).poll_write_vectored(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        self.stream.is_write_vectored()
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.stream).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.stream).poll_shutdown(cx)
    }
}

#[cfg(test)]
mod tests {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};

    use super::*;

    #[tokio::test]
    async fn the_bytes_read_come_first_then_the_stream_in_both_directions() {
        let (near, mut far) = tokio::io::duplex(64);
        let mut rewound = Rewound::new(Bytes::from_static(b"GET / HT"), near);
        far.write_all(b"TP/1.1\r\n").await.expect("write");
        let mut first = [0u8; 3];
        rewound.read_exact(&mut first).await.expect("read");
        assert_eq!(&first, b"GET");
        let mut rest = [0u8; 13];
        rewound.read_exact(&mut rest).await.expect("read");
        assert_eq!(&rest, b" / HTTP/1.1\r\n");
        rewound.write_all(b"answer").await.expect("write");
        let mut answer = [0u8; 6];
        far.read_exact(&mut answer).await.expect("read");
        assert_eq!(&answer, b"answer");
    }
}
