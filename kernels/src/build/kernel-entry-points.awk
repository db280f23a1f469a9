# Lists the kernel entry points one kernel source declares, in declaration order, one per line:
#   <symbol> [<parameter>:<KIND>]...
# KIND is POINTER (any T*), I32 (int, unsigned, int32_t, uint32_t), I64 (long, long long, int64_t,
# uint64_t, size_t) or F32 (float); any other parameter type fails, naming kernel, parameter and type.
#
# An entry point is an `LS_KERNEL [LS_<ATTRIBUTE>...] void <name>(<parameters>)` declaration (the
# attribute macros are object-like, e.g. a launch bound), written out or produced by a function-like
# macro of the source or of a header it includes with "...": those macros are
# expanded here as the C preprocessor would (parameters, ## pasting, macros invoking macros), since
# whole families of kernels are instantiated that way. Conditionals are not evaluated, so entry
# points must not depend on #if; the build checks every code object against this list, which
# catches any case this reading gets wrong. It runs without a compiler: CPU images have none.
#
# usage: awk -f kernel-entry-points.awk <source>
BEGIN {
  scalar_kinds["int"] = "I32"
  scalar_kinds["unsigned"] = "I32"
  scalar_kinds["unsigned int"] = "I32"
  scalar_kinds["int32_t"] = "I32"
  scalar_kinds["uint32_t"] = "I32"
  scalar_kinds["long"] = "I64"
  scalar_kinds["long long"] = "I64"
  scalar_kinds["int64_t"] = "I64"
  scalar_kinds["uint64_t"] = "I64"
  scalar_kinds["size_t"] = "I64"
  scalar_kinds["float"] = "F32"
  source = ARGV[1]
  ARGV[1] = ""
  in_comment = 0
  pending = ""
  text = " "
  read_source(source)
  if (pending ~ /[^ \t]/) fail("unbalanced parentheses at the end of the source")
  list_kernels(text " ")
  exit 0
}

function fail(message) {
  printf "%s: %s\n", source, message > "/dev/stderr"
  exit 1
}

# Reads a file as the preprocessor sees it: continuation lines joined, comments removed, local
# includes read in place (once each, as every header is #pragma once).
function read_source(path,   line, logical, status, dir) {
  if (path in seen_files) return
  seen_files[path] = 1
  dir = path
  sub(/[^\/]*$/, "", dir)
  logical = ""
  while ((status = (getline line < path)) > 0) {
    sub(/\r$/, "", line)
    if (line ~ /\\$/) {
      logical = logical substr(line, 1, length(line) - 1)
      continue
    }
    take(strip_comments(logical line), dir)
    logical = ""
  }
  if (status < 0) fail("cannot read " path)
  close(path)
  if (logical != "") take(strip_comments(logical), dir)
}

function strip_comments(s,   out, rest, quote, j, c) {
  out = ""
  while (s != "") {
    if (in_comment) {
      j = index(s, "*/")
      if (j == 0) return out
      s = substr(s, j + 2)
      in_comment = 0
      out = out " "
      continue
    }
    if (!match(s, /["'\/]/)) return out s
    out = out substr(s, 1, RSTART - 1)
    s = substr(s, RSTART)
    c = substr(s, 1, 1)
    if (c == "\"" || c == "'") {  # a literal, copied whole: comment markers inside it are text
      for (j = 2; j <= length(s) && substr(s, j, 1) != c; j++) if (substr(s, j, 1) == "\\") j++
      out = out substr(s, 1, j)
      s = substr(s, j + 1)
    } else if (substr(s, 1, 2) == "//") {
      return out
    } else if (substr(s, 1, 2) == "/*") {
      in_comment = 1
      s = substr(s, 3)
    } else {
      out = out c
      s = substr(s, 2)
    }
  }
  return out
}

# A directive is acted on; other text is collected until its parentheses balance (a declaration or
# a macro invocation may span lines), then expanded.
function take(line, dir,   tail) {
  if (line ~ /^[ \t]*#/) {
    directive(line, dir)
    return
  }
  pending = pending " " line
  if (count(pending, "(") != count(pending, ")")) return
  if (match(pending, /[A-Za-z_][A-Za-z_0-9]*[ \t]*$/)) {  # a macro's name whose arguments follow on the next line
    tail = substr(pending, RSTART, RLENGTH)
    sub(/[ \t]+$/, "", tail)
    if (tail in macro_params) return
  }
  text = text expand(pending, 0) " "
  pending = ""
}

function count(s, c) {
  return gsub("\\" c, c, s)
}

function directive(line, dir,   d, name, rest, close_at, params) {
  d = line
  sub(/^[ \t]*#[ \t]*/, "", d)
  if (d ~ /^include[ \t]*"/) {
    name = d
    sub(/^include[ \t]*"/, "", name)
    sub(/".*$/, "", name)
    read_source(dir name)
  } else if (d ~ /^define[ \t]/) {
    sub(/^define[ \t]+/, "", d)
    if (!match(d, /^[A-Za-z_][A-Za-z_0-9]*/)) fail("cannot read #define " d)
    name = substr(d, 1, RLENGTH)
    rest = substr(d, RLENGTH + 1)
    delete macro_params[name]
    delete macro_body[name]
    if (substr(rest, 1, 1) != "(") return  # object-like: never part of an entry point's name or parameters
    close_at = index(rest, ")")
    if (close_at == 0) fail("#define " name ": no ')' after its parameters")
    params = substr(rest, 2, close_at - 2)
    gsub(/[ \t]/, "", params)
    if (params ~ /\.\.\./) fail("#define " name ": variadic macros are not supported by the entry-point scan")
    macro_params[name] = params
    macro_body[name] = substr(rest, close_at + 1)
  } else if (d ~ /^undef[ \t]/) {
    sub(/^undef[ \t]+/, "", d)
    sub(/[ \t].*$/, "", d)
    delete macro_params[d]
    delete macro_body[d]
  }
}

# Replaces every invocation of a function-like macro in s, rescanning each replacement.
function expand(s, depth,   out, name, args, n, level, start, i, c, found) {
  if (depth > 32) fail("macro expansion nested deeper than 32 levels (a macro invoking itself?)")
  out = ""
  while (match(s, /[A-Za-z_][A-Za-z_0-9]*/)) {
    out = out substr(s, 1, RSTART - 1)
    name = substr(s, RSTART, RLENGTH)
    s = substr(s, RSTART + RLENGTH)
    if (!(name in macro_params) || !match(s, /^[ \t]*\(/)) {
      out = out name
      continue
    }
    s = substr(s, RLENGTH + 1)
    n = 0
    level = 0
    start = 1
    found = 0
    for (i = 1; i <= length(s); i++) {
      c = substr(s, i, 1)
      if (c == "(") {
        level++
      } else if (c == ")" && level > 0) {
        level--
      } else if (c == ")" || (c == "," && level == 0)) {
        args[++n] = substr(s, start, i - start)
        start = i + 1
        if (c == ")") {
          found = 1
          break
        }
      }
    }
    if (!found) fail("unterminated invocation of macro " name)
    s = substr(s, i + 1)
    out = out expand(substitute(name, args, n), depth + 1)
  }
  return out s
}

function substitute(name, args, n,   params, count_params, value, i, body, out, token) {
  count_params = macro_params[name] == "" ? 0 : split(macro_params[name], params, ",")
  if (count_params == 0 && n == 1 && args[1] ~ /^[ \t]*$/) n = 0
  if (n != count_params) fail("macro " name " takes " count_params " arguments, given " n)
  for (i = 1; i <= n; i++) {
    value[params[i]] = trim(args[i])
  }
  body = macro_body[name]
  out = ""
  while (match(body, /[A-Za-z_][A-Za-z_0-9]*/)) {
    token = substr(body, RSTART, RLENGTH)
    out = out substr(body, 1, RSTART - 1) ((token in value) ? value[token] : token)
    body = substr(body, RSTART + RLENGTH)
  }
  out = out body
  gsub(/[ \t]*##[ \t]*/, "", out)
  return out
}

function trim(s) {
  sub(/^[ \t]+/, "", s)
  sub(/[ \t]+$/, "", s)
  return s
}

function list_kernels(s,   declaration, name, params, count_params, line, i) {
  while (match(s, /[^A-Za-z_0-9]LS_KERNEL[^A-Za-z_0-9]/)) {
    s = substr(s, RSTART + RLENGTH - 1)
    # attribute macros (LS_<NAME>, e.g. a launch bound) may stand between LS_KERNEL and void
    if (!match(s, /^([ \t]+LS_[A-Z0-9_]+)*[ \t]*void[ \t]+[A-Za-z_][A-Za-z_0-9]*[ \t]*\([^)]*\)/)) {
      fail("cannot read the declaration after LS_KERNEL (want 'void <name>(<parameters>)'): " substr(s, 1, 80))
    }
    declaration = substr(s, RSTART, RLENGTH)
    s = substr(s, RSTART + RLENGTH)
    sub(/^([ \t]+LS_[A-Z0-9_]+)*[ \t]*void[ \t]+/, "", declaration)
    name = declaration
    sub(/[ \t]*\(.*$/, "", name)
    if (name in kernels) fail("kernel " name " is declared twice")
    kernels[name] = 1
    params = declaration
    sub(/^[^(]*\(/, "", params)
    sub(/\)$/, "", params)
    line = name
    if (trim(params) != "" && trim(params) != "void") {
      count_params = split(params, param, ",")
      for (i = 1; i <= count_params; i++) line = line " " parameter(name, i - 1, trim(param[i]))
    }
    print line
  }
}

# "<name>:<KIND>" of one declared parameter (index counted from 0).
function parameter(kernel, index_, p,   name, type) {
  if (!match(p, /[A-Za-z_][A-Za-z_0-9]*$/) || RSTART == 1) {
    fail("kernel " kernel ", parameter " index_ ": cannot read '" p "' as '<type> <name>'")
  }
  name = substr(p, RSTART)
  type = " " substr(p, 1, RSTART - 1) " "
  gsub(/\*/, " * ", type)
  gsub(/[ \t](const|volatile|__restrict__|__restrict|restrict)[ \t]/, " ", type)
  gsub(/[ \t](const|volatile|__restrict__|__restrict|restrict)[ \t]/, " ", type)
  gsub(/[ \t]+/, " ", type)
  type = trim(type)
  if (type ~ /^[A-Za-z_][A-Za-z_0-9 ]*( \*)+$/) return name ":POINTER"
  if (type in scalar_kinds) return name ":" scalar_kinds[type]
  fail("kernel " kernel ", parameter " index_ " (" name "): unsupported type '" type "'" \
      " (kernel parameters are pointers, 32- or 64-bit integers, or float)")
}
