package com.llmserve.gpu.bindingcheck;

import com.llmserve.gpu.spi.NativeLibrary;
import java.lang.foreign.AddressLayout;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.GroupLayout;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.PaddingLayout;
import java.lang.foreign.StructLayout;
import java.lang.foreign.ValueLayout;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.List;
import java.util.Map;

/**
 * Turns a binding holder class into C++ that compiles only if the holder agrees with the real
 * header: for every bound function, the ABI class of the return and of each parameter (integer
 * of a size, float, double, pointer, void) and that the bound name is not a macro for another
 * (versioned) symbol; every {@code public static final int/long} constant's value; every struct
 * layout's size and the offset and size of each named member. A struct passed by value (NCCL's
 * 128-byte {@code ncclUniqueId}) is an ABI class of its own, its size and alignment checked too.
 *
 * <p>ABI classes, not C types, are compared because FFM descriptors carry only those: an enum
 * and an {@code int} both pass as {@code JAVA_INT}, any pointer as {@code ADDRESS}. Signedness is
 * not visible to the ABI either.
 */
public final class BindingCheckGenerator {

    private BindingCheckGenerator() {}

    private static final String SUPPORT = """
      #include <cstddef>
      #include <tuple>
      #include <type_traits>

      namespace ffm_check {
      // One letter per ABI class: v void, p pointer, f float, d double, b/h/i/l integer of 1/2/4/8 bytes,
      // s a struct by value (its size and alignment are checked by arg_size and arg_align).
      template <class T> constexpr char code() {
        if constexpr (std::is_void_v<T>) return 'v';
        else if constexpr (std::is_pointer_v<T>) return 'p';
        else if constexpr (std::is_same_v<T, float>) return 'f';
        else if constexpr (std::is_same_v<T, double>) return 'd';
        else if constexpr (std::is_integral_v<T> || std::is_enum_v<T>)
          return sizeof(T) == 1 ? 'b' : sizeof(T) == 2 ? 'h' : sizeof(T) == 4 ? 'i' : sizeof(T) == 8 ? 'l' : '?';
        else if constexpr (std::is_class_v<T>) return 's';
        else return '?';
      }
      constexpr bool same(const char* a, const char* b) {
        for (;; ++a, ++b) {
          if (*a != *b) return false;
          if (*a == '\\0') return true;
        }
      }
      template <class R, class... A> constexpr bool matches(R (*)(A...), const char* expected) {
        constexpr char actual[] = {code<R>(), code<A>()..., '\\0'};
        return same(actual, expected);
      }
      template <std::size_t I, class R, class... A> constexpr std::size_t arg_size(R (*)(A...)) {
        return sizeof(std::tuple_element_t<I, std::tuple<A...>>);
      }
      template <std::size_t I, class R, class... A> constexpr std::size_t arg_align(R (*)(A...)) {
        return alignof(std::tuple_element_t<I, std::tuple<A...>>);
      }
      }  // namespace ffm_check
      #define FFM_CHECK_STR2(x) #x
      #define FFM_CHECK_STR(x) FFM_CHECK_STR2(x)
      """;

    /** C++ source checking {@code holder} after {@code prelude} (defines and includes). */
    public static String generate(Class<?> holder, List<String> prelude) {
        StringBuilder out = new StringBuilder();
        out.append("// Generated from ").append(holder.getName()).append(" by BindingCheckGenerator. Do not edit.\n");
        prelude.forEach(line -> out.append(line).append('\n'));
        out.append(SUPPORT).append('\n');
        Map<String, String> overloads = cppOverloads(holder);
        for (Map.Entry<String, FunctionDescriptor> f : library(holder).functionsInOrder()) {
            String name = f.getKey();
            String expected = signature(f.getValue());
            // A name the C++ header overloads (C++-only convenience overloads beside the C function)
            // is ambiguous as &name; the holder names the C prototype, and static_cast selects exactly it.
            String address = overloads.containsKey(name)
                    ? "static_cast<" + overloads.get(name) + ">(&" + name + ")"
                    : "&" + name;
            out.append("static_assert(ffm_check::same(FFM_CHECK_STR(")
                    .append(name)
                    .append("), \"")
                    .append(name)
                    .append("\"), \"")
                    .append(name)
                    .append(" is a macro for another symbol: bind the exported name it expands to\");\n");
            out.append("static_assert(ffm_check::matches(")
                    .append(address)
                    .append(", \"")
                    .append(expected)
                    .append("\"), \"")
                    .append(name)
                    .append(": Java FunctionDescriptor ")
                    .append(describe(f.getValue()))
                    .append(" does not match the header\");\n");
            List<MemoryLayout> arguments = f.getValue().argumentLayouts();
            for (int i = 0; i < arguments.size(); i++) {
                if (!(arguments.get(i) instanceof GroupLayout byValue)) continue;
                appendArgument(out, name, address, i, "arg_size", byValue.byteSize(), byValue.byteSize() + " bytes");
                appendArgument(
                        out,
                        name,
                        address,
                        i,
                        "arg_align",
                        byValue.byteAlignment(),
                        "aligned to " + byValue.byteAlignment());
            }
        }
        for (Field field : holder.getDeclaredFields()) {
            int mod = field.getModifiers();
            if (!Modifier.isPublic(mod) || !Modifier.isStatic(mod) || !Modifier.isFinal(mod)) continue;
            Object value = get(field);
            if (field.getType() == int.class || field.getType() == long.class) {
                out.append("static_assert(")
                        .append(field.getName())
                        .append(" == ")
                        .append(value)
                        .append(field.getType() == long.class ? "LL" : "")
                        .append(", \"")
                        .append(field.getName())
                        .append(" is not ")
                        .append(value)
                        .append(" in the header\");\n");
            } else if (value instanceof StructLayout struct) {
                appendStruct(out, struct);
            }
        }
        return out.toString();
    }

    /** The encoding {@code ffm_check::matches} expects: return, then each parameter. */
    static String signature(FunctionDescriptor d) {
        StringBuilder s = new StringBuilder();
        s.append(d.returnLayout().map(BindingCheckGenerator::code).orElse('v'));
        d.argumentLayouts().forEach(l -> s.append(code(l)));
        return s.toString();
    }

    private static char code(MemoryLayout layout) {
        if (layout instanceof AddressLayout) return 'p';
        if (layout instanceof ValueLayout.OfFloat) return 'f';
        if (layout instanceof ValueLayout.OfDouble) return 'd';
        if (layout instanceof ValueLayout v) {
            return switch ((int) v.byteSize()) {
                case 1 -> 'b';
                case 2 -> 'h';
                case 4 -> 'i';
                case 8 -> 'l';
                default -> throw new IllegalArgumentException("unsupported layout " + layout);
            };
        }
        if (layout instanceof GroupLayout) return 's';
        throw new IllegalArgumentException("unsupported layout " + layout);
    }

    private static void appendArgument(
            StringBuilder out, String name, String address, int index, String check, long expected, String what) {
        out.append("static_assert(ffm_check::")
                .append(check)
                .append('<')
                .append(index)
                .append(">(")
                .append(address)
                .append(") == ")
                .append(expected)
                .append(", \"")
                .append(name)
                .append(": argument ")
                .append(index)
                .append(" (a struct by value) is not ")
                .append(what)
                .append(" in the header\");\n");
    }

    private static String describe(FunctionDescriptor d) {
        return d.toString().replace("\"", "'");
    }

    private static void appendStruct(StringBuilder out, GroupLayout struct) {
        String type = struct.name().orElseThrow(() -> new IllegalArgumentException("struct layout without a C name"));
        out.append("static_assert(sizeof(")
                .append(type)
                .append(") == ")
                .append(struct.byteSize())
                .append(", \"sizeof(")
                .append(type)
                .append(") is not ")
                .append(struct.byteSize())
                .append("\");\n");
        for (MemoryLayout member : struct.memberLayouts()) {
            if (member instanceof PaddingLayout || member.name().isEmpty()) continue;
            String name = member.name().get();
            long offset = struct.byteOffset(MemoryLayout.PathElement.groupElement(name));
            out.append("static_assert(offsetof(")
                    .append(type)
                    .append(", ")
                    .append(name)
                    .append(") == ")
                    .append(offset)
                    .append(", \"")
                    .append(type)
                    .append('.')
                    .append(name)
                    .append(" is not at offset ")
                    .append(offset)
                    .append("\");\n");
            out.append("static_assert(sizeof(")
                    .append(type)
                    .append("::")
                    .append(name)
                    .append(") == ")
                    .append(member.byteSize())
                    .append(", \"")
                    .append(type)
                    .append('.')
                    .append(name)
                    .append(" is not ")
                    .append(member.byteSize())
                    .append(" bytes\");\n");
        }
    }

    /** The holder's {@code CPP_OVERLOADED} map (symbol to C function-pointer type), if it has one. */
    @SuppressWarnings("unchecked")
    private static Map<String, String> cppOverloads(Class<?> holder) {
        try {
            return (Map<String, String>) holder.getField("CPP_OVERLOADED").get(null);
        } catch (NoSuchFieldException e) {
            return Map.of();
        } catch (IllegalAccessException e) {
            throw new IllegalStateException(e);
        }
    }

    private static NativeLibrary library(Class<?> holder) {
        try {
            return (NativeLibrary) holder.getField("LIBRARY").get(null);
        } catch (ReflectiveOperationException e) {
            throw new IllegalArgumentException(holder + " has no public LIBRARY field", e);
        }
    }

    private static Object get(Field field) {
        try {
            return field.get(null);
        } catch (IllegalAccessException e) {
            throw new IllegalStateException(e);
        }
    }
}
