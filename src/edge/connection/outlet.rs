//! Edge stage, how the fast lane writes a response: the head and the body
//! from memory in one vectored write, or, on a TCP socket and for a body
//! held in a file ([`BodyFile`]), the head held back (`MSG_MORE`) and the
//! body sent by the kernel from the file's pages (`sendfile`), with no
//! copy of it through the process.

use std::future::Future;
use std::io::{self, IoSlice};

use tokio::io::{AsyncRead, AsyncWrite, AsyncWriteExt, DuplexStream, Interest};
use tokio::net::TcpStream;

use crate::edge::answer::BodyFile;

/// A connection's stream, as the lane writes to it.
pub trait Outlet: AsyncRead + AsyncWrite + Unpin + Send + Sized + 'static {
    /// Writes `head` then `body`, the whole of both.
    fn send<'a>(
        &'a mut self,
        head: [&'a [u8]; 2],
        body: &'a [u8],
        file: Option<&'a BodyFile>,
    ) -> impl Future<Output = io::Result<()>> + Send + 'a {
        let _ = file;
        write_all(self, [head[0], head[1], body])
    }
}

/// An in-memory stream (tests, fuzzing): the bytes are copied.
impl Outlet for DuplexStream {}

impl Outlet for TcpStream {
    async fn send<'a>(
        &'a mut self,
        head: [&'a [u8]; 2],
        body: &'a [u8],
        file: Option<&'a BodyFile>,
    ) -> io::Result<()> {
        let Some(file) = file else {
            return write_all(self, [head[0], head[1], body]).await;
        };
        let mut head = [IoSlice::new(head[0]), IoSlice::new(head[1])];
        let mut head = &mut head[..];
        while !head.is_empty() {
            // Held back until the body's first bytes join it in a segment.
            let sent = write_with(self, |socket| {
                rustix::net::sendmsg(
                    socket,
                    head,
                    &mut rustix::net::SendAncillaryBuffer::default(),
                    rustix::net::SendFlags::MORE | rustix::net::SendFlags::NOSIGNAL,
                )
            })
            .await?;
            IoSlice::advance_slices(&mut head, sent);
        }
        let mut offset = 0;
        while offset < file.length {
            let left = usize::try_from(file.length - offset).unwrap_or(usize::MAX);
            let sent = write_with(self, |socket| {
                rustix::fs::sendfile(socket, &file.file, Some(&mut offset), left)
            })
            .await?;
            if sent == 0 {
                return Err(io::ErrorKind::WriteZero.into());
            }
        }
        Ok(())
    }
}

/// Runs `write` on `socket` when it is writable, again each time it would
/// block.
async fn write_with(
    socket: &TcpStream,
    mut write: impl FnMut(&TcpStream) -> rustix::io::Result<usize>,
) -> io::Result<usize> {
    loop {
        socket.writable().await?;
        match socket.try_io(Interest::WRITABLE, || {
            write(socket).map_err(io::Error::from)
        }) {
            Err(err) if err.kind() == io::ErrorKind::WouldBlock => continue,
            sent => return sent,
        }
    }
}

/// Writes `parts` whole, in as few vectored writes as the stream takes.
async fn write_all<S: AsyncWrite + Unpin>(stream: &mut S, parts: [&[u8]; 3]) -> io::Result<()> {
    let mut parts = parts.map(IoSlice::new);
    let mut parts = &mut parts[..];
    while !parts.is_empty() {
        let written = stream.write_vectored(parts).await?;
        if written == 0 {
            return Err(io::ErrorKind::WriteZero.into());
        }
        IoSlice::advance_slices(&mut parts, written);
    }
    Ok(())
}
