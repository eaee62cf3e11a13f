// SPDX-License-Identifier: Apache-2.0
#include "dsl/openapi/openapi_responders.h"

#include <dromedary/core/exchange.h>
#include <dromedary/engine/context.h>
#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/text.h"
#include "dsl/openapi/json_syntax.h"
#include "engine/resources.h"

namespace dromedary::dsl {

namespace fs = std::filesystem;

namespace {

const HeaderKey kResponseCode("CamelHttpResponseCode");
const HeaderKey kContentType("Content-Type");

std::string_view textOf(const Value* v) noexcept {
  if (!v) return {};
  if (v->isString()) return v->getString();
  if (v->isBytes()) return v->getBytes().view();
  return {};
}

bool containsIgnoreCase(std::string_view text, std::string_view part) noexcept {
  auto it = std::search(text.begin(), text.end(), part.begin(), part.end(), [](char a, char b) {
    return std::tolower(static_cast<unsigned char>(a)) ==
           std::tolower(static_cast<unsigned char>(b));
  });
  return it != text.end();
}

// Camel's RestUtil.isValidOrAcceptedContentType: `target` (a Content-Type or an Accept list)
// names one of `valid`'s media types, or anything (*/*). No target or no valid types: yes.
bool acceptedContentType(std::string_view valid, std::string_view target) noexcept {
  if (valid.empty() || target.empty() || target.find("*/*") != std::string_view::npos) {
    return true;
  }
  while (!target.empty()) {
    size_t comma = target.find(',');
    std::string_view part = target.substr(0, comma);
    part = trim(part.substr(0, part.find(';')));
    if (!part.empty() && containsIgnoreCase(valid, part)) return true;
    if (comma == std::string_view::npos) break;
    target.remove_prefix(comma + 1);
  }
  return false;
}

// A body its Content-Type calls JSON that is not.
bool notJson(std::string_view body, std::string_view content_type) noexcept {
  return !body.empty() && !content_type.empty() &&
         acceptedContentType("application/json", content_type) && !isJsonText(body);
}

// An Ant path pattern ("**" any folders, "*" any characters but '/', "?" one) against a
// relative path, as Camel's AntPathMatcher.
bool antMatch(std::string_view pattern, std::string_view path) noexcept {
  if (pattern.empty()) return path.empty();
  if (pattern.starts_with("**")) {
    std::string_view rest = pattern.substr(2);
    if (rest.starts_with('/')) rest.remove_prefix(1);
    if (rest.empty()) return true;
    for (size_t i = 0; i <= path.size(); ++i) {
      if ((i == 0 || path[i - 1] == '/') && antMatch(rest, path.substr(i))) return true;
    }
    return false;
  }
  if (pattern[0] == '*') {
    for (size_t i = 0; i <= path.size(); ++i) {
      if (antMatch(pattern.substr(1), path.substr(i))) return true;
      if (i < path.size() && path[i] == '/') break;
    }
    return false;
  }
  if (path.empty()) return false;
  if (pattern[0] == '?' ? path[0] != '/' : pattern[0] == path[0]) {
    return antMatch(pattern.substr(1), path.substr(1));
  }
  return false;
}

Result<std::string> readWhole(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    return makeError(ErrorCode::NotFound, fmt::format("cannot read mock file '{}'", path.string()));
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

// The regular files under `root` whose path relative to it matches `pattern`.
Result<void> addMatching(const fs::path& root, std::string_view pattern, std::string_view label,
                         std::vector<MockFile>& out) {
  std::error_code ec;
  if (!fs::is_directory(root, ec)) return {};  // no such folder: nothing to mock from
  for (auto it = fs::recursive_directory_iterator(root, ec); !ec && it != fs::end(it);
       it.increment(ec)) {
    if (!it->is_regular_file(ec)) continue;
    std::string relative = fs::relative(it->path(), root, ec).generic_string();
    if (!antMatch(pattern, relative)) continue;
    DROMEDARY_TRY(text, readWhole(it->path()));
    std::string location = fmt::format("{}/{}", label, relative);
    std::string extension;
    size_t dot = location.rfind('.');
    if (dot != std::string::npos && location.find('/', dot) == std::string::npos) {
      extension = location.substr(dot + 1);
      location.resize(dot);
    }
    out.push_back({std::move(location), std::move(extension), std::move(text)});
  }
  return {};
}

class MockResponder final : public Processor {
 public:
  MockResponder(std::string base, const OpenApiOperation& op,
                std::shared_ptr<const std::vector<MockFile>> files)
      : base_(std::move(base)),
        echoes_(op.method == "DELETE" || op.method == "PUT" || op.method == "POST" ||
                op.method == "PATCH"),
        examples_(op.examples),
        files_(std::move(files)) {}

  bool mayBlock() const noexcept override { return false; }

  Status process(Exchange& ex) override {
    Message& m = ex.message();
    std::string_view content_type = textOf(m.headers().get(kContentType));
    if (answerFromFile(m, content_type)) return Status::Continue;
    if (echoes_) {
      m.headers().set(kResponseCode, Value(200));  // the input, as it came
      return Status::Continue;
    }
    std::string_view accept = textOf(m.headers().get("Accept"));
    const std::pair<std::string, std::string>* example = exampleFor(content_type, accept);
    if (!example || trim(example->second).empty()) {
      m.headers().set(kResponseCode, Value(204));
      m.setBody(Value(std::string()));
      return Status::Continue;
    }
    m.headers().set(kResponseCode, Value(200));
    m.headers().set(kContentType, Value(example->first));
    m.setBody(Value(example->second));
    return Status::Continue;
  }

 private:
  // The first file whose location ends with the request's path (after the base path), of the
  // extension the request's Content-Type asks for (json, xml), if it asks.
  bool answerFromFile(Message& m, std::string_view content_type) {
    std::string_view target = textOf(m.headers().get("CamelHttpPath"));
    if (target.starts_with(base_)) target.remove_prefix(base_.size());
    if (target.starts_with('/')) target.remove_prefix(1);
    const bool json = containsIgnoreCase(content_type, "json");
    const bool xml = containsIgnoreCase(content_type, "xml");
    for (const MockFile& f : *files_) {
      if (!std::string_view(f.location).ends_with(target)) continue;
      if ((json && f.extension != "json") || (xml && f.extension != "xml")) continue;
      if (f.extension == "json") m.headers().set(kContentType, Value("application/json"));
      if (f.extension == "xml") m.headers().set(kContentType, Value("text/xml"));
      m.headers().set(kResponseCode, Value(200));
      m.setBody(Value(f.text));
      return true;
    }
    return false;
  }

  // The example in the request's Content-Type, else the first the Accept header names, else
  // JSON or XML for "*/*".
  const std::pair<std::string, std::string>* exampleFor(std::string_view content_type,
                                                        std::string_view accept) const {
    auto find = [&](std::string_view type) -> const std::pair<std::string, std::string>* {
      for (const auto& e : examples_) {
        if (e.first == type) return &e;
      }
      return nullptr;
    };
    if (const auto* e = find(content_type)) return e;
    if (accept.empty()) return nullptr;
    for (std::string_view rest = accept; !rest.empty();) {
      size_t comma = rest.find(',');
      std::string_view part = rest.substr(0, comma);
      if (const auto* e = find(trim(part.substr(0, part.find(';'))))) return e;
      rest = comma == std::string_view::npos ? std::string_view() : rest.substr(comma + 1);
    }
    if (accept == "*/*") {
      if (const auto* e = find("application/json")) return e;
      return find("application/xml");
    }
    return nullptr;
  }

  std::string base_;
  bool echoes_;
  std::vector<std::pair<std::string, std::string>> examples_;
  std::shared_ptr<const std::vector<MockFile>> files_;
};

class RequestCheck final : public Processor {
 public:
  explicit RequestCheck(const OpenApiOperation& op)
      : query_(op.requiredQuery.begin(), op.requiredQuery.end()),
        headers_(op.requiredHeaders.begin(), op.requiredHeaders.end()),
        allowed_(keyed(op.allowedValues)),
        required_body_(op.requiredBody) {}

  bool mayBlock() const noexcept override { return false; }

  Status process(Exchange& ex) override {
    Message& m = ex.message();
    const Headers& h = m.headers();
    for (const HeaderKey& q : query_) {
      if (!h.contains(q)) return reject(ex, "Some of the required query parameters are missing.");
    }
    for (const HeaderKey& name : headers_) {
      if (!h.contains(name)) return reject(ex, "Some of the required HTTP headers are missing.");
    }
    for (const auto& [name, values] : allowed_) {
      const Value* v = h.get(name);
      if (!v) continue;
      std::string other;  // a value that is not text, as text
      std::string_view text = v->isString() ? std::string_view(v->getString())
                                            : std::string_view(other = v->toString());
      if (std::find(values.begin(), values.end(), text) == values.end()) {
        return reject(ex, "Some of the query parameters or HTTP headers has a not-allowed value.");
      }
    }
    std::string_view body = textOf(&m.body());
    if (required_body_ && body.empty()) return reject(ex, "The request body is missing.");
    if (notJson(body, textOf(h.get(kContentType)))) return reject(ex, "Invalid JSon payload.");
    return Status::Continue;
  }

 private:
  static Status reject(Exchange& ex, std::string_view why) {
    ex.message().headers().set(kResponseCode, Value(400));
    ex.message().setBody(Value(why));
    ex.setProperty(kRequestRejectedProperty, Value(true));
    return Status::Continue;
  }

  std::vector<HeaderKey> query_;
  std::vector<HeaderKey> headers_;
  using Allowed = std::vector<std::pair<HeaderKey, std::vector<std::string>>>;
  // Each name with its hash made once, for the per-request lookups.
  static Allowed keyed(const std::vector<std::pair<std::string, std::vector<std::string>>>& in) {
    Allowed out;
    for (const auto& [name, values] : in) out.emplace_back(HeaderKey(name), values);
    return out;
  }

  Allowed allowed_;
  bool required_body_;
};

class ResponseCheck final : public Processor {
 public:
  explicit ResponseCheck(const OpenApiOperation& op) : types_(op.responseTypes) {}

  bool mayBlock() const noexcept override { return false; }

  Status process(Exchange& ex) override {
    Message& m = ex.message();
    std::string_view content_type = textOf(m.headers().get(kContentType));
    if (!content_type.empty() && !types_.empty()) {
      const Value* code_value = m.headers().get(kResponseCode);
      std::string code = code_value ? code_value->toString() : "200";
      const std::string* found = nullptr;
      for (const auto& [c, types] : types_) {
        if (c == code) found = &types;
      }
      for (const auto& [c, types] : types_) {
        if (!found && c == "default") found = &types;
      }
      if (found && !acceptedContentType(*found, content_type)) {
        return fail(
            m, fmt::format("Invalid content-type: {} for response code: {}", content_type, code));
      }
    }
    if (notJson(textOf(&m.body()), content_type)) return fail(m, "Invalid response JSon payload.");
    return Status::Continue;
  }

 private:
  static Status fail(Message& m, std::string why) {
    m.headers().set(kResponseCode, Value(500));
    m.headers().remove(kContentType);
    m.setBody(Value(std::move(why)));
    return Status::Continue;
  }

  std::vector<std::pair<std::string, std::string>> types_;
};

class DocumentResponder final : public Processor {
 public:
  DocumentResponder(std::string text, std::string content_type)
      : text_(std::move(text)), content_type_(std::move(content_type)) {}
  bool mayBlock() const noexcept override { return false; }
  Status process(Exchange& ex) override {
    if (!content_type_.empty()) ex.message().headers().set(kContentType, Value(content_type_));
    ex.message().setBody(Value(text_));
    return Status::Continue;
  }

 private:
  std::string text_;
  std::string content_type_;
};

}  // namespace

Result<std::vector<MockFile>> readMockFiles(Context& context, std::string_view patterns) {
  std::vector<MockFile> files;
  while (!patterns.empty()) {
    size_t comma = patterns.find(',');
    std::string_view one = trim(patterns.substr(0, comma));
    patterns = comma == std::string_view::npos ? std::string_view() : patterns.substr(comma + 1);
    if (one.empty()) continue;
    std::vector<std::string> roots;
    if (one.starts_with("file:")) {
      one.remove_prefix(5);
      roots.push_back(".");
    } else if (one.starts_with("classpath:")) {
      one.remove_prefix(10);
      while (one.starts_with('/')) one.remove_prefix(1);
      roots = detail::classpathFolders(context);
    } else {
      return makeError(
          ErrorCode::InvalidOption,
          fmt::format("mockIncludePattern '{}' must start with file: or classpath:", one));
    }
    // The folder part before the first wildcard, then the pattern below it.
    size_t wild = one.find_first_of("*?");
    size_t cut = one.rfind('/', wild == std::string_view::npos ? one.size() : wild);
    std::string_view folder = cut == std::string_view::npos ? "" : one.substr(0, cut);
    std::string_view below = cut == std::string_view::npos ? one : one.substr(cut + 1);
    for (const std::string& root : roots) {
      fs::path base = folder.starts_with('/') ? fs::path(std::string(folder))
                                              : fs::path(root) / std::string(folder);
      DROMEDARY_TRY_VOID(addMatching(base, below, folder, files));
    }
  }
  std::stable_sort(files.begin(), files.end(),
                   [](const MockFile& a, const MockFile& b) { return a.location < b.location; });
  return files;
}

std::shared_ptr<Processor> makeMockResponder(std::string basePath, const OpenApiOperation& op,
                                             std::shared_ptr<const std::vector<MockFile>> files) {
  return std::make_shared<MockResponder>(std::move(basePath), op, std::move(files));
}

std::shared_ptr<Processor> makeRequestCheck(const OpenApiOperation& op) {
  return std::make_shared<RequestCheck>(op);
}

std::shared_ptr<Processor> makeResponseCheck(const OpenApiOperation& op) {
  return std::make_shared<ResponseCheck>(op);
}

std::shared_ptr<Processor> makeDocumentResponder(std::string text, std::string contentType) {
  return std::make_shared<DocumentResponder>(std::move(text), std::move(contentType));
}

}  // namespace dromedary::dsl
