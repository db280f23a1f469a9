package com.llmserve.app.openai;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.JsonNode;

/** JSON from a request as the plain maps, lists and scalars the engine takes (chat templates, schemas). */
public final class JsonValues {

    private JsonValues() {}

    /** Objects keep their key order; integers become longs, other numbers doubles. */
    public static Object plain(JsonNode v) {
        if (v.isObject()) {
            Map<String, Object> map = new LinkedHashMap<>();
            for (Map.Entry<String, JsonNode> e : v.properties()) {
                map.put(e.getKey(), plain(e.getValue()));
            }
            return map;
        } else if (v.isArray()) {
            List<Object> list = new ArrayList<>();
            for (JsonNode e : v) {
                list.add(plain(e));
            }
            return list;
        } else if (v.isBoolean()) {
            return v.booleanValue();
        } else if (v.isIntegralNumber()) {
            return v.canConvertToLong() ? (Object) v.longValue() : v.bigIntegerValue();
        } else if (v.isNumber()) {
            return v.isBigDecimal() ? v.decimalValue() : (Object) v.doubleValue();
        } else if (v.isString()) {
            return v.stringValue();
        }
        return null;
    }
}
