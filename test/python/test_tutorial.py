"""docs/tutorial.md runs as written: every code block, in order, with the
outputs it shows checked.

The Python blocks are one file (the tutorial says so: jitted functions need
their source), run in a fresh folder; each shell block runs at its place
among them, in that folder, with the build's tools on PATH. What a block
prints is checked against the tutorial where it shows it: a `print(...)`
whose line ends with `# -> text`, and a plain fenced block after "prints"
(or "prints something like", where paths and line numbers may differ).
`...` in an expected output stands for anything (digits that vary). A
block preceded by `<!-- tutorial-test: skip (why) -->` is not run (the
install commands); `<!-- tutorial-test: run in the clone -->` runs a shell
block in a folder laid out like the clone (its files, and build/).
"""

import io
import os
import re
import runpy
import subprocess
import sys

import pytest

import adjoint as adj

SOURCE = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))
TUTORIAL = os.path.join(SOURCE, "docs", "tutorial.md")


def build_dir():
    """ADJOINT_BUILD_DIR, else the build tree the extension was loaded from
    (<build>/python/adjoint/_adjoint*.so, through a link if need be)."""
    env = os.environ.get("ADJOINT_BUILD_DIR")
    if env:
        return env
    so = os.path.realpath(adj._adjoint.__file__)
    return os.path.dirname(os.path.dirname(os.path.dirname(so)))


class Block:
    def __init__(self, lang, text, line, directive, expected=None,
                 approximate=False):
        self.lang = lang            # "python", "sh", or "" (an output)
        self.text = text
        self.line = line            # of the opening fence in the tutorial
        self.directive = directive  # the tutorial-test comment, or None
        self.expected = expected    # the output shown after it, if any
        self.approximate = approximate


def parse(path):
    """The tutorial's code blocks, each with the output block shown after
    it ("prints" / "prints something like")."""
    lines = open(path).read().split("\n")
    blocks, i, directive, prose = [], 0, None, ""
    while i < len(lines):
        line = lines[i]
        m = re.match(r"<!-- tutorial-test: (.*) -->$", line.strip())
        if m:
            directive = m.group(1)
        elif line.startswith("```"):
            lang, start = line[3:].strip(), i + 1
            i += 1
            while not lines[i].startswith("```"):
                i += 1
            text = "\n".join(lines[start:i])
            if lang:
                blocks.append(Block(lang, text, start, directive))
            else:
                # An output: of the block before, which the text between
                # says it "prints".
                assert blocks and "prints" in prose, \
                    "tutorial.md:%d: an output block of no code" % start
                blocks[-1].expected = text
                blocks[-1].approximate = "prints something like" in prose
            directive, prose = None, ""
        else:
            prose += line + "\n"
        i += 1
    return blocks


def matches(expected, actual, approximate=False):
    """Whether `actual` is `expected` with each `...` standing for anything
    (and, when approximate, any path and any line numbers)."""
    pattern = re.escape(expected.strip()).replace(r"\.\.\.", ".*?")
    if approximate:
        pattern = re.sub(r"/path/to/your_script\\\.py", ".+?", pattern)
        pattern = re.sub(r"(?<![\w.\\])\d+(?![\w.])", r"\\d+", pattern)
    return re.fullmatch(pattern, actual.strip(), re.S) is not None


EXPECT = re.compile(r"^(\s*)print\((.*)\)\s*# -> (.*)$")


def python_code(block, index):
    """The block's code, each `print(...)  # -> out` checking its output."""
    out = []
    for line in block.text.split("\n"):
        m = EXPECT.match(line)
        if m:
            line = "%s_expect_print(%r, %d, %s)" % (
                m.group(1), m.group(3), block.line, m.group(2))
        out.append(line)
    return "_block(%d)\n%s\n" % (index, "\n".join(out))


class Runner:
    """The helpers the generated script calls: per block output capture and
    checks, and the shell blocks."""

    def __init__(self, blocks, folder, clone, env):
        self.blocks = blocks
        self.folder = folder
        self.clone = clone
        self.env = env
        self.current = None
        self.out = io.StringIO()
        self.ran = []

    def block(self, index):
        self.finish()
        self.current = index
        self.ran.append(index)
        b = self.blocks[index]
        if b.lang == "sh":
            self.shell(b)

    def finish(self):
        """Checks what the block that ran last printed."""
        if self.current is None:
            return
        b, text = self.blocks[self.current], self.out.getvalue()
        self.out.seek(0)
        self.out.truncate()
        if b.expected is not None:
            assert matches(b.expected, text, b.approximate), \
                "tutorial.md:%d prints\n%s\nnot\n%s" % (b.line, text,
                                                        b.expected)

    def expect_print(self, expected, line, *args):
        text = " ".join(str(a) for a in args)
        self.out.write(text + "\n")
        assert matches(expected, text), \
            "tutorial.md, block at line %d: print gave %r, the tutorial " \
            "says %r" % (line, text, expected)

    def shell(self, b):
        cwd = self.clone if b.directive == "run in the clone" else \
            self.folder
        r = subprocess.run(["bash", "-e", "-o", "pipefail", "-c", b.text],
                           cwd=cwd, env=self.env, capture_output=True,
                           text=True, timeout=600)
        assert r.returncode == 0, "tutorial.md:%d failed (%d):\n%s%s" % (
            b.line, r.returncode, r.stdout, r.stderr)
        self.out.write(r.stdout)


def test_every_block_runs_and_prints_what_the_tutorial_shows(tmp_path,
                                                             monkeypatch):
    blocks = parse(TUTORIAL)
    build = build_dir()
    assert os.path.exists(os.path.join(build, "bin", "ir-run")), build
    skipped = [b for b in blocks if (b.directive or "").startswith("skip")]
    # Only the install commands of section 1 are not run.
    assert len(skipped) == 3 and all(b.lang == "sh" for b in skipped)
    assert all(b.lang in ("python", "sh") for b in blocks)

    folder = tmp_path / "work"
    folder.mkdir()
    clone = tmp_path / "clone"
    clone.mkdir()
    for name in os.listdir(SOURCE):
        if name != "build":
            os.symlink(os.path.join(SOURCE, name), clone / name)
    os.symlink(build, clone / "build")
    env = dict(os.environ)
    env["PATH"] = os.path.join(build, "bin") + os.pathsep + env["PATH"]
    env["PYTHONPATH"] = os.pathsep.join(
        [os.path.dirname(os.path.dirname(adj.__file__))] +
        [p for p in env.get("PYTHONPATH", "").split(os.pathsep) if p])

    script = []
    for i, b in enumerate(blocks):
        if b in skipped:
            continue
        script.append(python_code(b, i) if b.lang == "python" else
                      "_block(%d)\n" % i)
    path = folder / "tutorial_run.py"
    path.write_text("\n".join(script) + "_block(None)\n")

    runner = Runner(blocks, str(folder), str(clone), env)

    def block(index):
        if index is None:
            runner.finish()
        else:
            runner.block(index)

    monkeypatch.chdir(folder)
    saved = sys.stdout
    sys.stdout = runner.out
    try:
        runpy.run_path(str(path), run_name="tutorial_run", init_globals={
            "_block": block, "_expect_print": runner.expect_print})
    finally:
        sys.stdout = saved
    ran = [i for i, b in enumerate(blocks) if b not in skipped]
    assert runner.ran == ran
    # The files the shell blocks use were made by the Python blocks.
    for name in ("grad.mlir", "x.npy", "w.npy", "b.npy"):
        assert (folder / name).exists()


def test_matches():
    assert matches("0.3888... (3, 2) (2,)", "0.38881 (3, 2) (2,)")
    assert not matches("0.3888... (3, 2) (2,)", "0.3889 (3, 2) (2,)")
    assert matches("/path/to/your_script.py:154:12: x",
                   "/tmp/a/t.py:31:12: x", approximate=True)
    assert not matches("/path/to/your_script.py:154:12: x",
                       "/tmp/a/t.py:31:12: y", approximate=True)


@pytest.mark.parametrize("lang", ["python", "sh"])
def test_parse_finds_blocks_and_their_outputs(tmp_path, lang):
    md = tmp_path / "t.md"
    md.write_text("Text\n\n<!-- tutorial-test: skip (x) -->\n```%s\na\n```\n"
                  "\nprints something like\n\n```\nout\n```\n\nthen\n\n```%s\n"
                  "b\n```\n" % (lang, lang))
    a, b = parse(str(md))
    assert (a.lang, a.text, a.directive, a.expected, a.approximate) == \
        (lang, "a", "skip (x)", "out", True)
    assert (b.text, b.directive, b.expected) == ("b", None, None)
