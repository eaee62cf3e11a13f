// SPDX-License-Identifier: Apache-2.0
// yaml-cpp reads both forms of an OpenAPI document: JSON is YAML's flow style.
#include "dsl/openapi/openapi_document.h"

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cctype>
#include <set>

namespace dromedary::dsl {

namespace {

constexpr std::string_view kMethods[] = {"get",     "put",  "post",  "delete",
                                         "options", "head", "patch", "trace"};

class DocumentReader {
 public:
  DocumentReader(const YAML::Node& root, std::string_view name) : root_(root), name_(name) {}

  Result<OpenApiDocument> read() {
    if (!root_.IsMap()) return error(root_, "is not an OpenAPI document (a map at the top)");
    if (root_["swagger"]) {
      return error(root_["swagger"], "is Swagger 2: only OpenAPI 3.0 and 3.1 are read, as Camel's");
    }
    const YAML::Node version = root_["openapi"];
    if (!version || !version.IsScalar() || !version.Scalar().starts_with("3.")) {
      return error(version ? version : root_, "has no 'openapi: 3.x' version");
    }
    const YAML::Node paths = root_["paths"];
    if (!paths || !paths.IsMap() || paths.size() == 0) {
      return error(paths ? paths : root_, "has no paths: there is nothing to serve");
    }
    OpenApiDocument doc;
    doc.basePath = basePath();
    for (const auto& entry : paths) {
      const std::string path = entry.first.Scalar();
      DROMEDARY_TRY(item_node, follow(entry.second));
      const YAML::Node& item = item_node;
      if (!item.IsMap()) return error(entry.second, fmt::format("path '{}' is not a map", path));
      for (const auto& op : item) {
        const std::string key = op.first.Scalar();
        if (std::find(std::begin(kMethods), std::end(kMethods), key) == std::end(kMethods)) {
          continue;  // parameters, summary, servers ...
        }
        DROMEDARY_TRY(operation, readOperation(path, key, item, op.second));
        doc.operations.push_back(std::move(operation));
      }
    }
    return doc;
  }

 private:
  Error error(const YAML::Node& node, std::string_view what) const {
    Error e = makeError(ErrorCode::InvalidRoute, fmt::format("OpenAPI document {}", what));
    e.where.file = std::string(name_);
    if (node.IsDefined() && node.Mark().line >= 0) {
      e.where.line = static_cast<uint32_t>(node.Mark().line + 1);
      e.where.column = static_cast<uint32_t>(node.Mark().column + 1);
    }
    return e;
  }

  // A "$ref": "#/components/..." followed to what it names (several hops, not in circles).
  // Callers read what it returns through a const reference: yaml-cpp's non-const [] inserts
  // the key it does not find.
  Result<YAML::Node> follow(const YAML::Node& node) const {
    YAML::Node at = node;
    for (int hops = 0; at.IsMap() && at["$ref"]; ++hops) {
      const YAML::Node ref = at["$ref"];
      if (!ref.IsScalar()) return error(ref, "has a $ref that is not text");
      const std::string& text = ref.Scalar();
      if (!text.starts_with("#/")) {
        return error(ref, fmt::format("refers to '{}' outside itself: only '#/...' references "
                                      "are followed",
                                      text));
      }
      if (hops == 32) return error(ref, fmt::format("has references in a circle at '{}'", text));
      YAML::Node target = root_;
      size_t start = 2;
      while (start <= text.size()) {
        size_t slash = text.find('/', start);
        if (slash == std::string::npos) slash = text.size();
        std::string part = unescapePointer(text.substr(start, slash - start));
        // Through a const view: yaml-cpp's non-const [] may insert, and Node's = assigns
        // into the document, so nodes are re-bound with reset().
        const YAML::Node& view = target;
        const YAML::Node next = view[part];
        if (!target.IsMap() || !next) {
          return error(ref, fmt::format("refers to '{}', which it does not have", text));
        }
        target.reset(next);
        start = slash + 1;
      }
      at.reset(target);
    }
    return at;
  }

  // JSON Pointer's escapes: ~1 is '/', ~0 is '~'.
  static std::string unescapePointer(std::string part) {
    for (size_t i = part.find('~'); i != std::string::npos; i = part.find('~', i + 1)) {
      if (i + 1 < part.size() && (part[i + 1] == '0' || part[i + 1] == '1')) {
        part.replace(i, 2, part[i + 1] == '1' ? "/" : "~");
      }
    }
    return part;
  }

  // Camel's getBasePathFromOpenApi: the path of each server's URL, its {variables} at their
  // defaults; the last server's wins. "https://host//api/v3/" is "/api/v3"; "/" is "".
  std::string basePath() const {
    std::string base;
    const YAML::Node servers = root_["servers"];
    if (!servers || !servers.IsSequence()) return base;
    for (const YAML::Node& server : servers) {
      if (!server.IsMap() || !server["url"] || !server["url"].IsScalar()) continue;
      std::string url = server["url"].Scalar();
      const YAML::Node vars = server["variables"];
      for (size_t open = url.find('{'); open != std::string::npos; open = url.find('{', open)) {
        size_t close = url.find('}', open);
        if (close == std::string::npos) break;
        std::string var = url.substr(open + 1, close - open - 1);
        if (vars && vars.IsMap() && vars[var] && vars[var]["default"]) {
          std::string value = vars[var]["default"].Scalar();
          url.replace(open, close - open + 1, value);
          open += value.size();
        } else {
          open = close + 1;
        }
      }
      size_t scheme = url.find("://");
      if (scheme != std::string::npos) {
        size_t path = url.find('/', scheme + 3);
        url = path == std::string::npos ? std::string() : url.substr(path);
      }
      url = url.substr(0, url.find_first_of("?#"));
      if (url.starts_with("//")) url.erase(0, 1);
      if (url.ends_with('/')) url.pop_back();
      base = url;
    }
    return base;
  }

  Result<OpenApiOperation> readOperation(const std::string& path, const std::string& method,
                                         const YAML::Node& item, const YAML::Node& node) {
    if (!node.IsMap()) return error(node, fmt::format("{} {} is not a map", method, path));
    OpenApiOperation op;
    op.path = path;
    op.method = method;
    for (char& c : op.method) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    if (node["operationId"] && node["operationId"].IsScalar()) {
      op.operationId = node["operationId"].Scalar();
    } else {
      // Camel's generated id: GENOPID_ + method + the path with '/' as '.' and braces as '_'.
      op.operationId = "GENOPID_" + op.method;
      for (char c : path) op.operationId += c == '/' ? '.' : (c == '{' || c == '}') ? '_' : c;
    }
    // The path's parameters, then the operation's (which replace those of the same name).
    std::vector<std::pair<std::string, YAML::Node>> params;
    for (const YAML::Node& list : {item["parameters"], node["parameters"]}) {
      if (!list || !list.IsSequence()) continue;
      for (const YAML::Node& p : list) {
        DROMEDARY_TRY(param_node, follow(p));
        const YAML::Node& param = param_node;
        if (!param.IsMap() || !param["name"] || !param["in"]) continue;
        std::string key = param["in"].Scalar() + ":" + param["name"].Scalar();
        auto same = std::find_if(params.begin(), params.end(),
                                 [&](const auto& e) { return e.first == key; });
        if (same != params.end()) {
          same->second.reset(param);
        } else {
          params.emplace_back(key, param);
        }
      }
    }
    for (const auto& [key, param] : params) {
      DROMEDARY_TRY_VOID(readParameter(param, op));
    }
    if (const YAML::Node body = node["requestBody"]) {
      DROMEDARY_TRY(request_node, follow(body));
      const YAML::Node& request = request_node;
      op.requiredBody = request["required"] && request["required"].Scalar() == "true";
      op.consumes = mediaTypes(request["content"]);
    }
    DROMEDARY_TRY_VOID(readResponses(node["responses"], op));
    return op;
  }

  Result<void> readParameter(const YAML::Node& param, OpenApiOperation& op) {
    const std::string in = param["in"].Scalar();
    const std::string name = param["name"].Scalar();
    const bool required = param["required"] && param["required"].Scalar() == "true";
    if (in == "query" && required) op.requiredQuery.push_back(name);
    if (in == "header" && required) op.requiredHeaders.push_back(name);
    if (in != "query" && in != "header") return {};
    if (const YAML::Node schema = param["schema"]) {
      DROMEDARY_TRY(s_node, follow(schema));
      const YAML::Node& s = s_node;
      if (s.IsMap() && s["enum"] && s["enum"].IsSequence()) {
        std::vector<std::string> values;
        for (const YAML::Node& v : s["enum"]) {
          if (v.IsScalar()) values.push_back(v.Scalar());
        }
        op.allowedValues.emplace_back(name, std::move(values));
      }
    }
    return {};
  }

  Result<void> readResponses(const YAML::Node& responses, OpenApiOperation& op) {
    if (!responses || !responses.IsMap()) return {};
    std::set<std::string> produced;
    for (const auto& entry : responses) {
      DROMEDARY_TRY(response_node, follow(entry.second));
      const YAML::Node& response = response_node;
      const std::string code = entry.first.Scalar();
      const YAML::Node content = response["content"];
      std::string types = mediaTypes(content);
      if (!types.empty()) op.responseTypes.emplace_back(code, types);
      if (content && content.IsMap()) {
        for (const auto& type : content) produced.insert(type.first.Scalar());
      }
      if (code == "200" && content && content.IsMap()) {
        for (const auto& type : content) {
          DROMEDARY_TRY(example, firstExample(type.second));
          if (!example.empty()) op.examples.emplace_back(type.first.Scalar(), std::move(example));
        }
      }
    }
    for (const std::string& t : produced) op.produces += (op.produces.empty() ? "" : ",") + t;
    return {};
  }

  // A media type's `example`, or the value of the first of its `examples`.
  Result<std::string> firstExample(const YAML::Node& media) {
    if (!media.IsMap()) return std::string();
    if (const YAML::Node example = media["example"]) return exampleText(example);
    const YAML::Node examples = media["examples"];
    if (!examples || !examples.IsMap() || examples.size() == 0) return std::string();
    DROMEDARY_TRY(first_node, follow(examples.begin()->second));
    const YAML::Node& first = first_node;
    if (!first.IsMap() || !first["value"]) return std::string();
    return exampleText(first["value"]);
  }

  // Text as it is; a structured example as JSON.
  static std::string exampleText(const YAML::Node& value) {
    if (value.IsScalar()) return value.Scalar();
    std::string out;
    appendJson(value, out);
    return out;
  }

  static void appendJson(const YAML::Node& node, std::string& out) {
    if (node.IsMap()) {
      out += '{';
      bool first = true;
      for (const auto& kv : node) {
        if (!first) out += ',';
        first = false;
        appendJsonString(kv.first.Scalar(), out);
        out += ':';
        appendJson(kv.second, out);
      }
      out += '}';
    } else if (node.IsSequence()) {
      out += '[';
      for (size_t i = 0; i < node.size(); ++i) {
        if (i) out += ',';
        appendJson(node[i], out);
      }
      out += ']';
    } else if (node.IsScalar() && node.Tag() != "!" && isJsonLiteral(node.Scalar())) {
      out += node.Scalar();  // a plain number, true, false or null
    } else if (node.IsScalar()) {
      appendJsonString(node.Scalar(), out);
    } else {
      out += "null";
    }
  }

  static bool isJsonLiteral(const std::string& s) {
    if (s == "true" || s == "false" || s == "null") return true;
    if (s.empty()) return false;
    size_t i = s[0] == '-' ? 1 : 0;
    bool digits = false;
    for (; i < s.size(); ++i) {
      char c = s[i];
      if (std::isdigit(static_cast<unsigned char>(c))) {
        digits = true;
      } else if (c != '.' && c != 'e' && c != 'E' && c != '+' && c != '-') {
        return false;
      }
    }
    return digits;
  }

  static void appendJsonString(const std::string& s, std::string& out) {
    out += '"';
    for (char c : s) {
      if (c == '"' || c == '\\') {
        out += '\\';
        out += c;
      } else if (static_cast<unsigned char>(c) < 0x20) {
        out += fmt::format("\\u{:04x}", static_cast<unsigned char>(c));
      } else {
        out += c;
      }
    }
    out += '"';
  }

  // A content map's media types, sorted, comma-separated.
  static std::string mediaTypes(const YAML::Node& content) {
    std::string out;
    if (!content || !content.IsMap()) return out;
    std::set<std::string> types;
    for (const auto& t : content) types.insert(t.first.Scalar());
    for (const std::string& t : types) out += (out.empty() ? "" : ",") + t;
    return out;
  }

  const YAML::Node& root_;
  std::string_view name_;
};

// yaml-cpp's error, where it is in the document.
Error yamlError(std::string_view what, const YAML::Exception& e, std::string_view name) {
  Error err =
      makeError(ErrorCode::InvalidRoute, fmt::format("OpenAPI document {}: {}", what, e.msg));
  err.where.file = std::string(name);
  err.where.line = static_cast<uint32_t>(e.mark.line + 1);
  err.where.column = static_cast<uint32_t>(e.mark.column + 1);
  return err;
}

}  // namespace

Result<OpenApiDocument> readOpenApiDocument(std::string_view text, std::string_view name) {
  YAML::Node root;
  try {
    root = YAML::Load(std::string(text));
  } catch (const YAML::Exception& e) {
    return yamlError("cannot be read", e, name);
  }
  try {
    return DocumentReader(root, name).read();
  } catch (const YAML::Exception& e) {
    return yamlError("has an unexpected shape", e, name);  // a list where text belongs ...
  }
}

}  // namespace dromedary::dsl
