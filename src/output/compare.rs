//! Output stage, publishing the same tree again: whether the tree already
//! published under a name holds exactly what this run staged.

use std::fs::{self, File};
use std::io::{self, Read};
use std::path::Path;

use walkdir::WalkDir;

use crate::manifest::{EDGE_DIR, MANIFEST, PUBLIC_DIR};

/// The parts of a tree that are published: what the CDN and the edge serve,
/// and the manifest that lists it. The records beside them are notes for
/// the next run, which a later run of the same snapshot may write fuller
/// (a first run records no month's sources).
pub(super) const PUBLISHED: [&str; 3] = [MANIFEST, EDGE_DIR, PUBLIC_DIR];

/// Whether the trees at `a` and `b` publish the same: in each of
/// [`PUBLISHED`], the same paths, each the same kind of entry, and every
/// file the same bytes. Costs a walk of both trees (most of it the
/// kernel's lookups of every path, twice: slow for a large catalogue), so
/// it is only asked when a run's manifest names a tree that exists already.
pub(super) fn same_published(a: &Path, b: &Path) -> io::Result<bool> {
    for part in PUBLISHED {
        let (a, b) = (a.join(part), b.join(part));
        let same = match (fs::symlink_metadata(&a), fs::symlink_metadata(&b)) {
            (Ok(_), Ok(_)) => same_entries(&a, &b)?,
            (Err(_), Err(_)) => true,
            _ => false,
        };
        if !same {
            return Ok(false);
        }
    }
    Ok(true)
}

/// Whether the entries at `a` and `b` (a file, or a directory and all it
/// holds) are the same. A file both share (a hard link: same device and
/// inode) is the same without reading it; any other pair of files is read
/// through.
fn same_entries(a: &Path, b: &Path) -> io::Result<bool> {
    let walk = |root: &Path| WalkDir::new(root).sort_by_file_name().into_iter();
    let mut left = walk(a);
    let mut right = walk(b);
    loop {
        match (left.next().transpose()?, right.next().transpose()?) {
            (None, None) => return Ok(true),
            (Some(x), Some(y)) => {
                // The roots' own names differ (two trees' parts); below
                // them, every name must match.
                let same_entry = x.depth() == y.depth()
                    && (x.depth() == 0 || x.file_name() == y.file_name())
                    && x.file_type() == y.file_type();
                if !same_entry || (x.file_type().is_file() && !same_file(x.path(), y.path())?) {
                    return Ok(false);
                }
            }
            _ => return Ok(false),
        }
    }
}

/// Whether two files hold the same bytes.
fn same_file(a: &Path, b: &Path) -> io::Result<bool> {
    let (meta_a, meta_b) = (fs::metadata(a)?, fs::metadata(b)?);
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        if (meta_a.dev(), meta_a.ino()) == (meta_b.dev(), meta_b.ino()) {
            return Ok(true);
        }
    }
    if meta_a.len() != meta_b.len() {
        return Ok(false);
    }
    let (mut file_a, mut file_b) = (File::open(a)?, File::open(b)?);
    let (mut buf_a, mut buf_b) = (vec![0u8; 1 << 16], vec![0u8; 1 << 16]);
    loop {
        let read = file_a.read(&mut buf_a)?;
        if read == 0 {
            return Ok(true);
        }
        file_b.read_exact(&mut buf_b[..read])?;
        if buf_a[..read] != buf_b[..read] {
            return Ok(false);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tree(root: &Path, files: &[(&str, &str)]) {
        for (path, text) in files {
            let path = root.join(path);
            fs::create_dir_all(path.parent().expect("a parent")).expect("dir");
            fs::write(path, text).expect("write");
        }
    }

    #[test]
    fn trees_are_the_same_only_with_the_same_paths_and_bytes() {
        let dir = tempfile::tempdir().expect("tempdir");
        let base = [
            ("public/a.html", "uno"),
            ("public/x/b.json", "{}"),
            ("_edge/index.msgpack", "\u{90}"),
            ("manifest.json", "[]"),
        ];
        let case = |name: &str, files: &[(&str, &str)]| {
            let root = dir.path().join(name);
            tree(&root, files);
            root
        };
        let a = case("a", &base);
        assert!(same_published(&a, &case("same", &base)).expect("compare"));
        let mut changed = base;
        changed[1] = ("public/x/b.json", "{ }");
        assert!(!same_published(&a, &case("bytes", &changed)).expect("compare"));
        changed[1] = ("public/x/b.json", "[]");
        assert!(!same_published(&a, &case("same-length", &changed)).expect("compare"));
        let extra = case("extra", &base);
        tree(&extra, &[("public/x/c.json", "{}")]);
        assert!(!same_published(&a, &extra).expect("compare"));
        assert!(!same_published(&extra, &a).expect("compare"));
        // No manifest.
        let missing = case("missing", &base[..3]);
        assert!(!same_published(&a, &missing).expect("compare"));
        // A record for the next run is not published.
        let noted = case("noted", &base);
        tree(&noted, &[("pages-sources.json", "{}")]);
        assert!(same_published(&a, &noted).expect("compare"));
        // A hard link is the same file without being read.
        let linked = dir.path().join("linked");
        for (path, _) in base {
            let to = linked.join(path);
            fs::create_dir_all(to.parent().expect("a parent")).expect("dir");
            fs::hard_link(a.join(path), to).expect("link");
        }
        assert!(same_published(&a, &linked).expect("compare"));
    }
}
