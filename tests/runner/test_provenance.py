"""The manifest's git revision when the package is installed from a clone (`pip install .`), not run from it."""

from __future__ import annotations

import shutil
import subprocess

import pytest

from casino_sim.runner import provenance

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="needs git")


@pytest.fixture
def clone(tmp_path):
    """A git work tree with one commit; its path and the commit."""
    folder = tmp_path / "clone"
    folder.mkdir()
    (folder / "pyproject.toml").write_text("[project]\nname = 'x'\n")
    git = ["git", "-C", str(folder), "-c", "user.name=t", "-c", "user.email=t@t"]
    subprocess.run([*git, "init", "-q"], check=True)
    subprocess.run([*git, "add", "."], check=True)
    subprocess.run([*git, "commit", "-q", "-m", "one"], check=True)
    head = subprocess.run([*git, "rev-parse", "HEAD"], check=True, capture_output=True, text=True).stdout.strip()
    return folder, head


def test_an_install_from_a_clone_records_the_clone_s_commit(clone, tmp_path, monkeypatch):
    folder, head = clone
    site = tmp_path / "site-packages" / "casino_sim"  # where pip copies the package: no checkout around it
    site.mkdir(parents=True)
    monkeypatch.setattr(provenance, "PACKAGE", site)
    monkeypatch.setattr(provenance, "_direct_url", lambda: {"url": folder.as_uri(), "dir_info": {}})
    assert provenance.git_revision() == head


def test_the_records_pip_writes_name_their_revision(clone, tmp_path):
    folder, head = clone
    assert provenance.installed_revision({"url": "git+https://x/y", "vcs_info": {"vcs": "git", "commit_id": "ab12"}})
    assert provenance.installed_revision({"url": "https://x/y", "vcs_info": {"commit_id": "ab12"}}) == "ab12"
    assert provenance.installed_revision({"url": folder.as_uri(), "dir_info": {"editable": False}}) == head
    assert provenance.installed_revision({"url": (tmp_path / "gone").as_uri(), "dir_info": {}}) is None
    assert provenance.installed_revision({"url": "https://x/y.whl", "archive_info": {}}) is None
    assert provenance.installed_revision(None) is None


def test_a_checkout_asks_git(monkeypatch):
    calls = []
    monkeypatch.setattr(provenance, "git_head", lambda folder: calls.append(folder) or "cafe")
    assert provenance.git_revision() == "cafe" and calls == [provenance.PACKAGE]  # this test runs from one
