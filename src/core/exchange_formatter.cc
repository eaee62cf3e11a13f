// SPDX-License-Identifier: Apache-2.0
#include <dromedary/core/exchange_formatter.h>

#include <dromedary/core/file_body.h>
#include <dromedary/core/value_stream.h>

#include <cxxabi.h>
#include <fmt/format.h>

#include <cstdlib>
#include <memory>

#include <algorithm>
#include <vector>

namespace dromedary {

namespace {

// Marks field boundaries while building; replaced at the end as Camel does.
constexpr char kSeparator = '\x1e';

void appendBody(const Value& body, bool skip_line_separator, bool show_files,
                std::string& out) {
  if (body.isNull()) {
    out += "[Body is null]";
    return;
  }
  if (const FileBody* file = body.getIf<FileBody>(); file && !show_files) {
    out += file->logText();  // not read: a log line never loads a whole file
    return;
  }
  if (const StreamBody* stream = body.getIf<StreamBody>()) {
    out += stream->logText();  // not read: reading would use its items up
    return;
  }
  size_t start = out.size();
  body.appendTo(out);
  if (skip_line_separator) {
    out.erase(std::remove(out.begin() + static_cast<std::ptrdiff_t>(start), out.end(), '\n'),
              out.end());
  }
}

void appendSorted(const Headers& headers, std::string& out) {
  std::vector<const Headers::Entry*> entries;
  entries.reserve(headers.size());
  for (const Headers::Entry& e : headers) entries.push_back(&e);
  std::sort(entries.begin(), entries.end(), [](const Headers::Entry* a, const Headers::Entry* b) {
    return std::lexicographical_compare(
        a->name.begin(), a->name.end(), b->name.begin(), b->name.end(),
        [](char x, char y) { return std::tolower(x) < std::tolower(y); });
  });
  out += '{';
  bool first = true;
  for (const Headers::Entry* e : entries) {
    if (!first) out += ", ";
    first = false;
    out += e->name;
    out += '=';
    if (e->value.isNull()) {
      out += "null";
    } else {
      e->value.appendTo(out);
    }
  }
  out += '}';
}

std::string demangle(const char* name) {
  int status = 0;
  std::unique_ptr<char, void (*)(void*)> d(abi::__cxa_demangle(name, nullptr, nullptr, &status),
                                           std::free);
  return status == 0 && d ? d.get() : name;
}

}  // namespace

void ExchangeFormatter::format(const Exchange& ex, std::string& out) const {
  const ExchangeFormatOptions& o = options_;
  const Message& in = ex.message();
  if (o.plain) {
    appendBody(in.body(), o.skipBodyLineSeparator, o.showFiles, out);
    return;
  }
  std::string sb;
  auto label = [&](std::string_view name) -> std::string& {
    if (o.multiline) sb += kSeparator;
    switch (o.style) {
      case ExchangeFormatOptions::Style::Default:
        sb += o.multiline ? "  " : ", ";
        sb += name;
        sb += ": ";
        break;
      case ExchangeFormatOptions::Style::Tab:
        sb += '\t';
        sb += name;
        sb += ": ";
        break;
      case ExchangeFormatOptions::Style::Fixed: fmt::format_to(std::back_inserter(sb), "\t{:<20}", name);
    }
    return sb;
  };
  if (o.showAll || o.showExchangeId) label("Id") += ex.exchangeId();
  if (o.showAll || o.showRouteId) label("RouteId") += ex.routeId();
  if (o.showAll || o.showExchangePattern) label("ExchangePattern") += patternName(ex.pattern());
  if (o.showAll || o.showProperties) appendSorted(ex.properties(), label("Properties"));
  if (o.showAll || o.showHeaders) appendSorted(in.headers(), label("Headers"));
  if (o.showAll || o.showBodyType) label("BodyType") += in.body().typeName();
  if (o.showAll || o.showBody) {
    appendBody(in.body(), o.skipBodyLineSeparator, o.showFiles, label("Body"));
  }
  if ((o.showAll || o.showException) && ex.failed()) {
    const ExchangeError& e = ex.error();
    std::string type(errorCodeName(e.code));
    if (e.exception) {
      try {
        std::rethrow_exception(e.exception);
      } catch (const std::exception& thrown) {
        type = demangle(typeid(thrown).name());
      } catch (...) {
        type = "unknown";
      }
    }
    label("ExceptionType") += type;
    label("ExceptionMessage") += e.message();
  }

  // Cut long fields (and split multiline output) the way Camel does.
  size_t head = out.size() + 9;
  out += "Exchange[";
  bool cut = o.multiline || (o.maxChars > 0 && static_cast<int64_t>(sb.size()) > o.maxChars);
  if (cut) {
    size_t start = 0;
    for (;;) {
      size_t end = sb.find(kSeparator, start);
      std::string_view part(sb.data() + start,
                            (end == std::string::npos ? sb.size() : end) - start);
      if (o.maxChars > 0 && static_cast<int64_t>(part.size()) > o.maxChars) {
        out += part.substr(0, static_cast<size_t>(o.maxChars));
        out += "...";
      } else {
        out += part;
      }
      if (o.multiline) out += '\n';
      if (end == std::string::npos) break;
      start = end + 1;
    }
  } else {
    out += sb;
  }
  if (!o.multiline && out.compare(head, 2, ", ") == 0) out.erase(head, 2);
  out += ']';
}

}  // namespace dromedary
