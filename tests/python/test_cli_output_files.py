"""Output files (src/cli/atomic_output): what `-out` does to an existing file, driven through `cryptaccel enc`.

An existing destination keeps its mode, owner, group and extended attributes (ACL included); a symbolic link is
written through (a dangling one gets its target created); hard links are broken (docs/cli.md, "Output files"); a
writable file in a directory we cannot write is written in place through $TMPDIR; and a failure part-way (a write
past `ulimit -f`) leaves the existing destination untouched in every one of those cases. The tests that need another
user run the command as nobody (65534) through setpriv when run as root, and are skipped otherwise.
"""
import errno
import os
import pathlib
import resource
import shutil
import stat
import struct
import subprocess
import tempfile

import pytest

from test_cli_enc import CLI, SEED, ok, one_line_error, rbytes, rng

from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes

MIB = 1 << 20
NOBODY = 65534
SETPRIV = shutil.which("setpriv")
IS_ROOT = os.geteuid() == 0


def ctr_args(key, iv):
    return ["enc", "-aes-128-ctr", "-K", key.hex(), "-iv", iv.hex()]


def aes_ctr(key, iv, data):
    enc = Cipher(algorithms.AES(key), modes.CTR(iv)).encryptor()
    return enc.update(data) + enc.finalize()


def run_cli(args, *, as_nobody=False, fsize_limit=None, env=None):
    """Runs the CLI (as nobody through setpriv when asked), optionally under `ulimit -f`."""
    argv = [CLI, *map(str, args)]
    if as_nobody:
        argv = [SETPRIV, f"--reuid={NOBODY}", f"--regid={NOBODY}", "--clear-groups", *argv]
    limit = None
    if fsize_limit is not None:
        limit = lambda: resource.setrlimit(resource.RLIMIT_FSIZE, (fsize_limit, fsize_limit))  # noqa: E731
    return subprocess.run(argv, capture_output=True, stdin=subprocess.DEVNULL, preexec_fn=limit, env=env, timeout=120)


def snapshot(path):
    """What a failed run must not change about `path`: content, inode, owner, group, mode, attributes."""
    st = os.stat(path)
    try:
        attrs = {name: os.getxattr(path, name) for name in os.listxattr(path)}
    except OSError:
        attrs = None
    return path.read_bytes(), st.st_ino, st.st_uid, st.st_gid, stat.S_IMODE(st.st_mode), attrs


def only_names(directory):
    return sorted(p.name for p in directory.iterdir())


def set_user_xattr(path):
    try:
        os.setxattr(path, "user.test", b"kept \x00 value")
    except OSError as e:
        if e.errno in (errno.ENOTSUP, errno.EOPNOTSUPP, errno.EPERM):
            pytest.skip(f"no user xattrs on {path.parent}'s file system: {e}")
        raise


ACL_UNDEFINED_ID = 0xFFFFFFFF


def acl_xattr(entries):
    """The system.posix_acl_access value of (tag, perm, id) entries (Linux's on-disk ACL, version 2)."""
    return struct.pack("<I", 2) + b"".join(struct.pack("<HHI", tag, perm, uid) for tag, perm, uid in entries)


def set_acl(path):
    """user::rw-, user:1234:rw-, group::---, mask::rw-, other::---: mode 0660, yet the owning group has nothing."""
    value = acl_xattr([(0x01, 6, ACL_UNDEFINED_ID), (0x02, 6, 1234), (0x04, 0, ACL_UNDEFINED_ID),
                       (0x10, 6, ACL_UNDEFINED_ID), (0x20, 0, ACL_UNDEFINED_ID)])
    try:
        os.setxattr(path, "system.posix_acl_access", value)
    except OSError as e:
        if e.errno in (errno.ENOTSUP, errno.EOPNOTSUPP):
            pytest.skip(f"no POSIX ACLs on {path.parent}'s file system: {e}")
        raise
    return value


@pytest.fixture
def shared_dir():
    """A directory nobody (65534) can reach: tmp_path's parents are root's 0700 when the tests run as root."""
    base = tempfile.mkdtemp(prefix="cryptaccel-out-")
    os.chmod(base, 0o755)
    spool = os.path.join(base, "spool")  # $TMPDIR for the in-place fallback, which nobody must be able to write
    os.mkdir(spool)
    os.chmod(spool, 0o777)
    yield pathlib.Path(base)
    for root, dirs, _ in os.walk(base):
        for d in dirs:
            os.chmod(os.path.join(root, d), 0o755)
    shutil.rmtree(base)


def need_nobody():
    if not IS_ROOT:
        pytest.skip("needs root, to run the command as another user (nobody)")
    if SETPRIV is None:
        pytest.skip("needs setpriv (util-linux) to run the command as nobody")


def test_existing_file_mode_kept(tmp_path):
    r = rng("out-mode")
    key, iv, data = rbytes(r, 16), rbytes(r, 16), rbytes(r, 5000)
    src, out = tmp_path / "in", tmp_path / "out"
    src.write_bytes(data)
    for mode in (0o640, 0o604, 0o400, 0o2751):
        out.write_bytes(b"old")
        os.chmod(out, mode)
        ok(run_cli([*ctr_args(key, iv), "-in", src, "-out", out]), f"mode {mode:o}")
        assert stat.S_IMODE(out.stat().st_mode) == mode, f"seed={SEED} mode {mode:o}"
        assert out.read_bytes() == aes_ctr(key, iv, data)
        os.chmod(out, 0o600)
    assert only_names(tmp_path) == ["in", "out"]


@pytest.mark.skipif(not IS_ROOT, reason="only root can give a file to another owner")
def test_owner_and_group_kept_as_root(tmp_path):
    """Root writing over a user's file leaves it the user's; the set-user-ID bit survives the chown (mode after)."""
    r = rng("out-owner")
    key, iv, data = rbytes(r, 16), rbytes(r, 16), rbytes(r, 3000)
    src, out = tmp_path / "in", tmp_path / "out"
    src.write_bytes(data)
    out.write_bytes(b"the user's old file")
    os.chown(out, 1234, 1234)
    os.chmod(out, 0o4750)
    ok(run_cli([*ctr_args(key, iv), "-in", src, "-out", out]))
    st = out.stat()
    assert (st.st_uid, st.st_gid, stat.S_IMODE(st.st_mode)) == (1234, 1234, 0o4750)
    assert out.read_bytes() == aes_ctr(key, iv, data)
    # Only the group differs: changed alone.
    os.chown(out, 0, 1234)
    ok(run_cli([*ctr_args(key, iv), "-in", src, "-out", out]))
    assert (out.stat().st_uid, out.stat().st_gid) == (0, 1234)
    assert only_names(tmp_path) == ["in", "out"]


def test_user_xattr_kept(tmp_path):
    r = rng("out-xattr")
    key, iv, data = rbytes(r, 16), rbytes(r, 16), rbytes(r, 3000)
    src, out = tmp_path / "in", tmp_path / "out"
    src.write_bytes(data)
    out.write_bytes(b"old")
    set_user_xattr(out)
    ok(run_cli([*ctr_args(key, iv), "-in", src, "-out", out]))
    assert os.getxattr(out, "user.test") == b"kept \x00 value"
    assert out.read_bytes() == aes_ctr(key, iv, data)


def test_acl_kept_and_mask_restored(tmp_path):
    """The ACL comes over whole, and the group bits (the mask) are not widened to the owning group."""
    r = rng("out-acl")
    key, iv, data = rbytes(r, 16), rbytes(r, 16), rbytes(r, 3000)
    src, out = tmp_path / "in", tmp_path / "out"
    src.write_bytes(data)
    out.write_bytes(b"old")
    os.chmod(out, 0o600)
    acl = set_acl(out)
    mode = stat.S_IMODE(out.stat().st_mode)
    ok(run_cli([*ctr_args(key, iv), "-in", src, "-out", out]))
    assert os.getxattr(out, "system.posix_acl_access") == acl
    assert stat.S_IMODE(out.stat().st_mode) == mode == 0o660
    assert out.read_bytes() == aes_ctr(key, iv, data)


def test_symlink_written_through(tmp_path):
    """An existing target is replaced keeping its mode; the link stays a link."""
    r = rng("out-symlink")
    key, iv, data = rbytes(r, 16), rbytes(r, 16), rbytes(r, 3000)
    (tmp_path / "real").mkdir()
    target, link = tmp_path / "real" / "target", tmp_path / "link"
    target.write_bytes(b"old")
    os.chmod(target, 0o640)
    link.symlink_to("real/target")
    ok(subprocess.run([CLI, *ctr_args(key, iv), "-out", link], input=data, capture_output=True, timeout=60))
    assert os.readlink(link) == "real/target"
    assert target.read_bytes() == aes_ctr(key, iv, data)
    assert stat.S_IMODE(target.stat().st_mode) == 0o640
    assert only_names(tmp_path / "real") == ["target"]


def test_dangling_symlink_creates_its_target(tmp_path):
    """As open(O_CREAT) would: through a chain of links (relative, into another directory) to the missing file."""
    r = rng("out-dangling")
    key, iv, data = rbytes(r, 16), rbytes(r, 16), rbytes(r, 3000)
    (tmp_path / "sub").mkdir()
    src = tmp_path / "in"
    src.write_bytes(data)
    (tmp_path / "link1").symlink_to("link2")
    (tmp_path / "link2").symlink_to("sub/target")
    ok(run_cli([*ctr_args(key, iv), "-in", src, "-out", tmp_path / "link1"]))
    target = tmp_path / "sub" / "target"
    assert target.is_file() and not target.is_symlink()
    assert target.read_bytes() == aes_ctr(key, iv, data)
    assert (os.readlink(tmp_path / "link1"), os.readlink(tmp_path / "link2")) == ("link2", "sub/target")
    umask = os.umask(0)
    os.umask(umask)
    assert stat.S_IMODE(target.stat().st_mode) == 0o666 & ~umask
    assert only_names(tmp_path) == ["in", "link1", "link2", "sub"] and only_names(tmp_path / "sub") == ["target"]


def test_dangling_symlink_into_missing_directory_names_the_target(tmp_path):
    (tmp_path / "link").symlink_to("nodir/target")
    proc = run_cli([*ctr_args(bytes(16), bytes(16)), "-in", "/dev/null", "-out", tmp_path / "link"])
    msg = one_line_error(proc, "enc")
    assert f"cannot create '{tmp_path / 'nodir' / 'target'}': No such file or directory" in msg, msg
    assert only_names(tmp_path) == ["link"]


@pytest.mark.skipif(not IS_ROOT, reason="only root can give a symbolic link to another owner")
def test_someone_elses_link_in_a_sticky_directory_follows_the_kernel(shared_dir):
    """A link resolved by the tool must not bypass fs.protected_symlinks: someone else's link in a sticky
    world-writable directory (/tmp) is followed exactly when the kernel's open() follows it."""
    sticky = shared_dir / "sticky"
    sticky.mkdir()
    os.chmod(sticky, 0o1777)
    for name in ("probe", "link"):
        (sticky / name).symlink_to(f"{name}-target")
        os.lchown(sticky / name, 1234, 1234)
    try:
        os.close(os.open(sticky / "probe", os.O_WRONLY | os.O_CREAT, 0o600))
        kernel_follows = True
    except PermissionError:
        kernel_follows = False
    assert (sticky / "probe-target").exists() == kernel_follows
    proc = run_cli([*ctr_args(bytes(16), bytes(16)), "-in", "/dev/null", "-out", sticky / "link"])
    if kernel_follows:
        ok(proc)
        assert (sticky / "link-target").read_bytes() == b""
    else:
        msg = one_line_error(proc, "enc")
        assert f"cannot follow the symbolic link '{sticky / 'link'}': Permission denied" in msg, msg
        assert not (sticky / "link-target").exists()


def test_hard_links_are_broken_as_documented(tmp_path):
    """docs/cli.md: the destination's name gets the new file; the other name keeps the old content, whole."""
    r = rng("out-hardlink")
    key, iv, data = rbytes(r, 16), rbytes(r, 16), rbytes(r, 3000)
    src, out, other = tmp_path / "in", tmp_path / "out", tmp_path / "other"
    src.write_bytes(data)
    out.write_bytes(b"shared old content")
    os.link(out, other)
    ok(run_cli([*ctr_args(key, iv), "-in", src, "-out", out]))
    assert out.read_bytes() == aes_ctr(key, iv, data)
    assert other.read_bytes() == b"shared old content"
    assert out.stat().st_nlink == other.stat().st_nlink == 1
    assert out.stat().st_ino != other.stat().st_ino


def test_writable_file_in_read_only_directory_is_written_in_place(shared_dir):
    """nobody may write `out` but not its directory: no temporary file can go there, so the output goes to $TMPDIR
    first and over the file (same inode, its owner kept) at the end."""
    need_nobody()
    r = rng("out-rodir")
    key, iv, data = rbytes(r, 16), rbytes(r, 16), rbytes(r, 3 * MIB + 7)
    ro = shared_dir / "ro"
    ro.mkdir()
    src, out = shared_dir / "in", ro / "out"
    src.write_bytes(data)
    os.chmod(src, 0o644)
    out.write_bytes(b"old content that is longer than nothing" * 200000)  # longer than the output: cut to length
    os.chown(out, NOBODY, NOBODY)
    os.chmod(out, 0o640)
    os.chmod(ro, 0o555)
    before = out.stat()
    env = {**os.environ, "TMPDIR": str(shared_dir / "spool")}
    ok(run_cli([*ctr_args(key, iv), "-in", src, "-out", out], as_nobody=True, env=env))
    after = out.stat()
    assert out.read_bytes() == aes_ctr(key, iv, data), f"seed={SEED}"
    assert (after.st_ino, after.st_uid, after.st_gid, stat.S_IMODE(after.st_mode)) == \
        (before.st_ino, NOBODY, NOBODY, 0o640)
    assert only_names(ro) == ["out"] and only_names(shared_dir / "spool") == []
    # Without the file to write in place, the read-only directory is the error, naming the file.
    proc = run_cli([*ctr_args(key, iv), "-in", src, "-out", ro / "new"], as_nobody=True, env=env)
    assert f"cannot create '{ro / 'new'}': Permission denied" in one_line_error(proc, "enc")


def test_someone_elses_writable_file_keeps_its_owner(shared_dir):
    """Not root, the file root's: a replacement would be nobody's, so it is written in place; a file nobody may not
    write fails as `openssl enc` does, untouched."""
    need_nobody()
    r = rng("out-other-owner")
    key, iv, data = rbytes(r, 16), rbytes(r, 16), rbytes(r, 5000)
    work = shared_dir / "work"
    work.mkdir()
    os.chmod(work, 0o777)
    src, out = shared_dir / "in", work / "out"
    src.write_bytes(data)
    os.chmod(src, 0o644)
    out.write_bytes(b"root's file")
    os.chmod(out, 0o666)
    ino = out.stat().st_ino
    env = {**os.environ, "TMPDIR": str(shared_dir / "spool")}
    ok(run_cli([*ctr_args(key, iv), "-in", src, "-out", out], as_nobody=True, env=env))
    assert out.read_bytes() == aes_ctr(key, iv, data)
    assert (out.stat().st_ino, out.stat().st_uid, out.stat().st_gid) == (ino, 0, 0)
    assert only_names(work) == ["out"]

    os.chmod(out, 0o644)
    before = snapshot(out)
    proc = run_cli([*ctr_args(key, iv), "-in", src, "-out", out], as_nobody=True, env=env)
    assert f"cannot open '{out}' for writing: Permission denied" in one_line_error(proc, "enc")
    assert snapshot(out) == before and only_names(work) == ["out"]


# --- a failure part-way leaves the destination untouched, whichever way it would have been written ----------------


def case_plain(d):
    (d / "out").write_bytes(b"plain old file")
    return d / "out", {}


def case_mode_and_xattr(d):
    out = d / "out"
    out.write_bytes(b"old with attributes")
    os.chmod(out, 0o604)
    set_user_xattr(out)
    return out, {}


def case_owner(d):
    if not IS_ROOT:
        pytest.skip("only root can give a file to another owner")
    out = d / "out"
    out.write_bytes(b"the user's old file")
    os.chown(out, 1234, 1234)
    return out, {}


def case_symlink(d):
    (d / "target").write_bytes(b"target's old content")
    (d / "out").symlink_to("target")
    return d / "out", {}


def case_hard_link(d):
    (d / "out").write_bytes(b"shared old content")
    os.link(d / "out", d / "other")
    return d / "out", {}


def case_read_only_dir(d):
    need_nobody()
    ro = d / "ro"
    ro.mkdir()
    (ro / "out").write_bytes(b"nobody's old file")
    os.chown(ro / "out", NOBODY, NOBODY)
    os.chmod(ro, 0o555)
    return ro / "out", {"as_nobody": True}


def case_other_owner_in_place(d):
    need_nobody()
    work = d / "work"
    work.mkdir()
    os.chmod(work, 0o777)
    (work / "out").write_bytes(b"root's old file")
    os.chmod(work / "out", 0o666)
    return work / "out", {"as_nobody": True}


@pytest.mark.parametrize("case", [case_plain, case_mode_and_xattr, case_owner, case_symlink, case_hard_link,
                                  case_read_only_dir, case_other_owner_in_place],
                         ids=lambda c: c.__name__[5:])
def test_failure_part_way_leaves_the_destination_untouched(shared_dir, case):
    """A write past `ulimit -f` (as a full disk would fail) is one line naming the file that failed — the temporary
    file, or $TMPDIR's for an in-place write — and changes nothing: content, inode, owner, mode, attributes, and no
    file is left over."""
    src = shared_dir / "in"
    src.write_bytes(b"\0" * (8 * MIB))
    os.chmod(src, 0o644)
    out, how = case(shared_dir)
    real = out.resolve()
    before = snapshot(real)
    names = {p: only_names(p) for p in (shared_dir, real.parent, shared_dir / "spool")}
    env = {**os.environ, "TMPDIR": str(shared_dir / "spool")}
    proc = run_cli([*ctr_args(bytes(16), bytes(16)), "-in", src, "-out", out], fsize_limit=2 * MIB, env=env, **how)
    msg = one_line_error(proc, "enc")
    in_place = case in (case_read_only_dir, case_other_owner_in_place)
    expected = (f"cannot write a temporary file in '{shared_dir / 'spool'}' (TMPDIR): File too large" if in_place else
                f"(the temporary file for '{real}'): File too large")
    assert msg.startswith("cryptaccel enc: cannot write ") and expected in msg, msg
    if not in_place:
        assert f"'{real.parent}/.{real.name}.tmp-" in msg, msg
    assert snapshot(real) == before
    assert {p: only_names(p) for p in names} == names
    if out.is_symlink():
        assert os.readlink(out) == "target"
