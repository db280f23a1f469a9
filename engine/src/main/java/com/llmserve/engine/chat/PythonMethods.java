package com.llmserve.engine.chat;

import com.hubspot.jinjava.objects.SafeString;
import java.beans.FeatureDescriptor;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import jinjava.javax.el.ELContext;
import jinjava.javax.el.ELResolver;

/**
 * The Python {@code str} and {@code dict} methods that Hugging Face chat templates call
 * ({@code content.strip()}, {@code role.startswith('sys')}, {@code text.split('</think>')[-1]},
 * {@code param.get('type', 'any')}, ...), with Python's semantics. Jinjava would otherwise call the
 * Java methods of the same name where one exists: {@code String.split} takes a regular expression
 * and returns an array, {@code String.strip} has no {@code chars} argument, and
 * {@code startswith}, {@code upper} and most others do not exist at all. Placed before Jinjava's
 * own resolvers; anything it does not know falls through to them.
 */
final class PythonMethods extends ELResolver {

    @Override
    public Object invoke(ELContext context, Object base, Object method, Class<?>[] paramTypes, Object[] params) {
        if (method == null) {
            return null;
        }
        Object[] args = params == null ? new Object[0] : params;
        Object result;
        if (base instanceof String || base instanceof SafeString) {
            result = stringMethod(base.toString(), method.toString(), args);
        } else if (base instanceof Map<?, ?> map) {
            result = mapMethod(map, method.toString(), args);
        } else {
            return null;
        }
        if (result == NOT_HANDLED) {
            return null;
        }
        context.setPropertyResolved(true);
        return result;
    }

    private static final Object NOT_HANDLED = new Object();

    private static Object stringMethod(String s, String name, Object[] a) {
        return switch (name) {
            case "strip" -> strip(s, arg(a, 0), true, true);
            case "lstrip" -> strip(s, arg(a, 0), true, false);
            case "rstrip" -> strip(s, arg(a, 0), false, true);
            case "startswith" -> affix(s, a, true);
            case "endswith" -> affix(s, a, false);
            case "split" -> split(s, arg(a, 0), a.length > 1 ? toInt(a[1]) : -1);
            case "rsplit" -> rsplit(s, arg(a, 0), a.length > 1 ? toInt(a[1]) : -1);
            case "splitlines" -> new ArrayList<>(s.lines().toList());
            case "upper" -> s.toUpperCase(Locale.ROOT);
            case "lower" -> s.toLowerCase(Locale.ROOT);
            case "title" -> title(s);
            case "capitalize" ->
                s.isEmpty()
                        ? s
                        : s.substring(0, 1).toUpperCase(Locale.ROOT)
                                + s.substring(1).toLowerCase(Locale.ROOT);
            case "replace" -> replace(s, str(a, 0), str(a, 1), a.length > 2 ? toInt(a[2]) : -1);
            case "find" -> s.indexOf(str(a, 0));
            case "rfind" -> s.lastIndexOf(str(a, 0));
            case "count" -> count(s, str(a, 0));
            case "join" -> join(s, a.length > 0 ? a[0] : List.of());
            case "isdigit" -> !s.isEmpty() && s.chars().allMatch(Character::isDigit);
            case "isalpha" -> !s.isEmpty() && s.codePoints().allMatch(Character::isLetter);
            case "isalnum" -> !s.isEmpty() && s.codePoints().allMatch(Character::isLetterOrDigit);
            case "isspace" -> !s.isEmpty() && s.codePoints().allMatch(PythonMethods::isPySpace);
            case "isupper" -> s.chars().anyMatch(Character::isLetter) && s.equals(s.toUpperCase(Locale.ROOT));
            case "islower" -> s.chars().anyMatch(Character::isLetter) && s.equals(s.toLowerCase(Locale.ROOT));
            default -> NOT_HANDLED;
        };
    }

    private static Object mapMethod(Map<?, ?> map, String name, Object[] a) {
        return switch (name) {
            case "get" -> a.length == 0 ? null : map.containsKey(a[0]) ? map.get(a[0]) : a.length > 1 ? a[1] : null;
            case "items" -> new ArrayList<>(map.entrySet());
            case "keys" -> new ArrayList<>(map.keySet());
            case "values" -> new ArrayList<>(map.values());
            default -> NOT_HANDLED;
        };
    }

    private static String arg(Object[] a, int i) {
        return a.length > i && a[i] != null ? a[i].toString() : null;
    }

    private static String str(Object[] a, int i) {
        if (a.length <= i || a[i] == null) {
            throw new IllegalArgumentException("missing string argument " + (i + 1));
        }
        return a[i].toString();
    }

    private static int toInt(Object o) {
        return o instanceof Number n ? n.intValue() : Integer.parseInt(o.toString());
    }

    /** Python's str.isspace, the characters str.strip() and str.split() treat as whitespace. */
    private static boolean isPySpace(int cp) {
        return Character.isWhitespace(cp) || Character.isSpaceChar(cp) || cp == 0x85;
    }

    private static String strip(String s, String chars, boolean left, boolean right) {
        int start = 0;
        int end = s.length();
        while (left && start < end && strips(s.charAt(start), chars)) {
            start++;
        }
        while (right && end > start && strips(s.charAt(end - 1), chars)) {
            end--;
        }
        return s.substring(start, end);
    }

    private static boolean strips(char c, String chars) {
        return chars == null ? isPySpace(c) : chars.indexOf(c) >= 0;
    }

    private static boolean affix(String s, Object[] a, boolean prefix) {
        if (a.length == 0) {
            throw new IllegalArgumentException((prefix ? "startswith" : "endswith") + " needs an argument");
        }
        // A tuple of alternatives arrives as a list.
        Collection<?> options = a[0] instanceof Collection<?> c ? c : List.of(a[0]);
        for (Object option : options) {
            String o = String.valueOf(option);
            if (prefix ? s.startsWith(o) : s.endsWith(o)) {
                return true;
            }
        }
        return false;
    }

    private static List<String> split(String s, String sep, int maxSplit) {
        List<String> parts = new ArrayList<>();
        if (sep == null) {
            // Runs of whitespace separate; leading and trailing whitespace gives no empty parts.
            int i = 0;
            int n = s.length();
            while (true) {
                while (i < n && isPySpace(s.charAt(i))) {
                    i++;
                }
                if (i >= n) {
                    break;
                }
                if (maxSplit >= 0 && parts.size() == maxSplit) {
                    parts.add(strip(s.substring(i), null, false, true));
                    break;
                }
                int j = i;
                while (j < n && !isPySpace(s.charAt(j))) {
                    j++;
                }
                parts.add(s.substring(i, j));
                i = j;
            }
            return parts;
        }
        if (sep.isEmpty()) {
            throw new IllegalArgumentException("empty separator");
        }
        int from = 0;
        int at;
        while ((maxSplit < 0 || parts.size() < maxSplit) && (at = s.indexOf(sep, from)) >= 0) {
            parts.add(s.substring(from, at));
            from = at + sep.length();
        }
        parts.add(s.substring(from));
        return parts;
    }

    private static List<String> rsplit(String s, String sep, int maxSplit) {
        if (sep == null || maxSplit < 0) {
            return split(s, sep, maxSplit);
        }
        List<String> parts = new ArrayList<>();
        int end = s.length();
        int at;
        while (parts.size() < maxSplit && (at = s.lastIndexOf(sep, end - sep.length())) >= 0) {
            parts.addFirst(s.substring(at + sep.length(), end));
            end = at;
        }
        parts.addFirst(s.substring(0, end));
        return parts;
    }

    private static String title(String s) {
        StringBuilder out = new StringBuilder(s.length());
        boolean previousCased = false;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            out.append(previousCased ? Character.toLowerCase(c) : Character.toTitleCase(c));
            previousCased = Character.isLetter(c);
        }
        return out.toString();
    }

    private static String replace(String s, String old, String replacement, int count) {
        if (count < 0) {
            return s.replace(old, replacement);
        }
        StringBuilder out = new StringBuilder();
        int from = 0;
        int at;
        int done = 0;
        while (done < count && !old.isEmpty() && (at = s.indexOf(old, from)) >= 0) {
            out.append(s, from, at).append(replacement);
            from = at + old.length();
            done++;
        }
        return out.append(s.substring(from)).toString();
    }

    private static int count(String s, String sub) {
        if (sub.isEmpty()) {
            return s.length() + 1;
        }
        int n = 0;
        for (int at = s.indexOf(sub); at >= 0; at = s.indexOf(sub, at + sub.length())) {
            n++;
        }
        return n;
    }

    private static String join(String separator, Object items) {
        List<String> parts = new ArrayList<>();
        if (items instanceof Iterable<?> it) {
            it.forEach(x -> parts.add(String.valueOf(x)));
        } else {
            parts.add(String.valueOf(items));
        }
        return String.join(separator, parts);
    }

    // Property access is left to Jinjava's resolvers.

    @Override
    public Object getValue(ELContext context, Object base, Object property) {
        return null;
    }

    @Override
    public Class<?> getType(ELContext context, Object base, Object property) {
        return null;
    }

    @Override
    public void setValue(ELContext context, Object base, Object property, Object value) {
        // not a property resolver
    }

    @Override
    public boolean isReadOnly(ELContext context, Object base, Object property) {
        return true;
    }

    @Override
    public Iterator<FeatureDescriptor> getFeatureDescriptors(ELContext context, Object base) {
        return null;
    }

    @Override
    public Class<?> getCommonPropertyType(ELContext context, Object base) {
        return null;
    }
}
