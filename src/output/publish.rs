//! Output stage, publishing: the finished staging tree moved under
//! `<destination>.trees/` and `<destination>` relinked to it in one atomic
//! step, the earlier trees beyond those kept removed.

use std::ffi::OsString;
use std::fs;
use std::path::{Path, PathBuf};

use anyhow::Context;

use super::compare;
use crate::api::json::etag;

/// Publishes the finished staging tree in one atomic step. The tree moves to
/// `<destination>.trees/<id>` (`id`: the first 16 hex digits of its
/// manifest's ETag, so the same snapshot gives the same name; see
/// [`tree_name`] for a tree of that name changed since), and
/// `<destination>`, a symbolic link, is replaced by a link to it with one
/// `rename`: a reader, or a crash at any moment, sees the old tree or the new
/// one, each complete, never neither. Besides the new tree, the `keep` most
/// recently published trees stay (a tree published again counts as new),
/// and the tree `<destination>` pointed to always stays, whatever `keep`
/// says, because an edge serves the tree it loaded until it reloads; older
/// ones are removed. A real directory found at `<destination>` (a tree
/// published before trees were versioned) is first moved into `.trees`
/// itself.
pub(super) fn publish(
    staging: &Path,
    destination: &Path,
    manifest: &[u8],
    keep: usize,
) -> anyhow::Result<()> {
    let trees = sibling(destination, "trees");
    fs::create_dir_all(&trees).with_context(|| format!("creating {}", trees.display()))?;
    let (id, published) = tree_name(&trees, staging, &etag(manifest)[1..17])?;
    let tree = trees.join(&id);
    move_in(staging, &tree, published)?;
    let previous = set_aside(destination, &trees)?;
    point_at(destination, &trees, &id)?;
    prune(&trees, &id, keep, previous.as_ref())
}

/// Moves the staged tree to `tree`. When the same tree is published
/// already (the same snapshot again), it becomes the newest, so no earlier
/// tree counts it among the kept, and takes this run's records, which may
/// say more (each one replaced by a rename: the old file may be a link
/// another tree shares).
fn move_in(staging: &Path, tree: &Path, published: bool) -> anyhow::Result<()> {
    if !published {
        return fs::rename(staging, tree)
            .with_context(|| format!("moving the new tree to {}", tree.display()));
    }
    for entry in fs::read_dir(staging).with_context(|| format!("listing {}", staging.display()))? {
        let name = entry?.file_name();
        if !compare::PUBLISHED.iter().any(|part| name == *part) {
            fs::rename(staging.join(&name), tree.join(&name))
                .with_context(|| format!("moving {name:?} into {}", tree.display()))?;
        }
    }
    fs::remove_dir_all(staging).with_context(|| format!("removing {}", staging.display()))?;
    fs::File::open(tree)
        .and_then(|dir| dir.set_modified(std::time::SystemTime::now()))
        .with_context(|| format!("marking {} as published now", tree.display()))
}

/// The name, in `trees`, of the tree `destination` serves now, if any: a
/// tree written before trees were versioned (a directory, not a link) is
/// moved there first, as `unversioned`.
fn set_aside(destination: &Path, trees: &Path) -> anyhow::Result<Option<OsString>> {
    match fs::symlink_metadata(destination) {
        Ok(meta) if meta.file_type().is_symlink() => Ok(fs::read_link(destination)
            .ok()
            .and_then(|target| target.file_name().map(|name| name.to_os_string()))),
        Ok(_) => {
            let kept = trees.join("unversioned");
            if kept.exists() {
                fs::remove_dir_all(&kept)
                    .with_context(|| format!("removing {}", kept.display()))?;
            }
            fs::rename(destination, &kept).with_context(|| {
                format!("moving {} into {}", destination.display(), trees.display())
            })?;
            Ok(Some("unversioned".into()))
        }
        Err(_) => Ok(None),
    }
}

/// Points `destination` at the tree `id` in `trees`, in one rename of a
/// new link over it.
fn point_at(destination: &Path, trees: &Path, id: &str) -> anyhow::Result<()> {
    let link = sibling(destination, "link");
    if fs::symlink_metadata(&link).is_ok() {
        fs::remove_file(&link).with_context(|| format!("removing {}", link.display()))?;
    }
    let trees_name = trees
        .file_name()
        .context("invariant: the trees directory has a name")?;
    symlink_dir(&Path::new(trees_name).join(id), &link)
        .with_context(|| format!("linking {} to {}", link.display(), trees.join(id).display()))?;
    fs::rename(&link, destination).with_context(|| format!("publishing {}", destination.display()))
}

/// Removes the trees in `trees` beyond the `keep` newest besides `id`,
/// except `previous` (an edge may still serve it).
fn prune(trees: &Path, id: &str, keep: usize, previous: Option<&OsString>) -> anyhow::Result<()> {
    let mut earlier = Vec::new();
    for entry in fs::read_dir(trees).with_context(|| format!("listing {}", trees.display()))? {
        let entry = entry?;
        let name = entry.file_name();
        if name != *id {
            let published = entry.metadata()?.modified()?;
            earlier.push((published, name));
        }
    }
    // Newest first; the name breaks ties, so the choice never depends on
    // the order the directory lists them in.
    earlier.sort_by(|a, b| b.cmp(a));
    for (rank, (_, name)) in earlier.iter().enumerate() {
        if rank >= keep && Some(name) != previous {
            let old = trees.join(name);
            fs::remove_dir_all(&old).with_context(|| format!("removing {}", old.display()))?;
        }
    }
    Ok(())
}

/// The name the tree staged at `staging` is published under in `trees`,
/// and whether a tree of that name holds the same files already. The name
/// is `id`, unless a tree of that name exists but publishes other files
/// (one changed or added since it was published): a tree is never written in
/// place, and throwing the new tree away would keep the changed one served,
/// so the new tree takes the first `id-2`, `id-3`... that is free or holds
/// the same; the changed one is pruned like any earlier tree.
fn tree_name(trees: &Path, staging: &Path, id: &str) -> anyhow::Result<(String, bool)> {
    for n in 1usize.. {
        let name = match n {
            1 => id.to_owned(),
            n => format!("{id}-{n}"),
        };
        let tree = trees.join(&name);
        if !tree.exists() {
            return Ok((name, false));
        }
        let same = compare::same_published(staging, &tree)
            .with_context(|| format!("comparing {} with {}", staging.display(), tree.display()))?;
        if same {
            return Ok((name, true));
        }
        tracing::warn!(tree = %tree.display(), "a published tree of this snapshot no longer holds the files it was published with; the new tree is published beside it");
    }
    unreachable!("a free name among every usize")
}

/// A symbolic link to a directory.
#[cfg(unix)]
fn symlink_dir(target: &Path, link: &Path) -> std::io::Result<()> {
    std::os::unix::fs::symlink(target, link)
}

/// A symbolic link to a directory.
#[cfg(windows)]
fn symlink_dir(target: &Path, link: &Path) -> std::io::Result<()> {
    std::os::windows::fs::symlink_dir(target, link)
}
/// `destination` with `.suffix` after its name, beside it (`output.trees`,
/// `output.scratch`).
pub(super) fn sibling(destination: &Path, suffix: &str) -> PathBuf {
    let mut name = destination
        .file_name()
        .map(|n| n.to_os_string())
        .unwrap_or_else(|| "output".into());
    name.push(format!(".{suffix}"));
    destination.with_file_name(name)
}
