// SPDX-License-Identifier: Apache-2.0
// file:DIRECTORY: Camel's file component. The endpoint reads its options once (expressions
// compiled, regexes built, repositories found) and makes a polling consumer
// (file_consumer.cc) or a writing producer (file_producer.cc) from them.
#include <fmt/format.h>

#include <dromedary/core/charset.h>
#include <dromedary/engine/context.h>
#include <dromedary/spi/bean_processor.h>
#include <dromedary/spi/component.h>

#include "file_consumer.h"
#include "file_options.h"
#include "file_producer.h"

namespace dromedary {
namespace component::file {

namespace {

std::vector<std::string> commaList(const std::string& text) {
  std::vector<std::string> out;
  size_t start = 0;
  while (start <= text.size() && !text.empty()) {
    size_t comma = text.find(',', start);
    if (comma == std::string::npos) comma = text.size();
    std::string item = text.substr(start, comma - start);
    while (!item.empty() && item.front() == '.') item.erase(0, 1);  // ".txt" or "txt"
    if (!item.empty()) out.push_back(item);
    start = comma + 1;
  }
  return out;
}

// \n, \r and \t in appendChars are the characters (Camel's escaping).
std::string unescape(const std::string& text) {
  std::string out;
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\\' && i + 1 < text.size()) {
      char c = text[i + 1];
      if (c == 'n' || c == 'r' || c == 't') {
        out += c == 'n' ? '\n' : c == 'r' ? '\r' : '\t';
        ++i;
        continue;
      }
    }
    out += text[i];
  }
  return out;
}

class FileEndpoint final : public Endpoint {
 public:
  FileEndpoint(Component& component, const Uri& uri, EndpointOptions options)
      : Endpoint(component, uri, std::move(options)) {}

  // The `charset` option: one the C library converts to and from UTF-8 (empty or UTF-8:
  // nothing to convert).
  Result<std::string> checkedCharset() const {
    const std::string& charset = options().getString("charset");
    if (isUtf8Charset(charset)) return std::string();
    if (!isKnownCharset(charset)) {
      return optionError(fmt::format("charset '{}' is not one this system converts (such as "
                                     "UTF-8, ISO-8859-1, windows-1252, US-ASCII, UTF-16)",
                                     charset));
    }
    return charset;
  }

  Result<std::unique_ptr<Producer>> createProducer() override {
    auto s = std::make_shared<ProducerSettings>();
    s->directory = std::string(parsedUri().path());
    const EndpointOptions& o = options();
    if (!o.getString("fileName").empty()) {
      DROMEDARY_TRY(e, expression("fileName", o.getString("fileName")));
      s->fileName = std::move(e);
    }
    static constexpr std::pair<std::string_view, FileExist> kExist[] = {
        {"Override", FileExist::Override}, {"Append", FileExist::Append},
        {"Fail", FileExist::Fail},         {"Ignore", FileExist::Ignore},
        {"Move", FileExist::Move},         {"TryRename", FileExist::TryRename}};
    for (auto [name, value] : kExist) {
      if (equalsIgnoreCase(o.getString("fileExist"), name)) s->fileExist = value;
    }
    if (s->fileExist == FileExist::Move) {
      if (o.getString("moveExisting").empty()) {
        return optionError("fileExist=Move needs moveExisting (where the existing file goes)");
      }
      s->moveExisting = o.getString("moveExisting");
    }
    if (s->fileExist == FileExist::TryRename && o.getString("tempPrefix").empty() &&
        o.getString("tempFileName").empty()) {
      return optionError("fileExist=TryRename needs tempPrefix or tempFileName");
    }
    s->tempPrefix = o.getString("tempPrefix");
    if (!o.getString("tempFileName").empty()) {
      DROMEDARY_TRY(e, expression("tempFileName", o.getString("tempFileName")));
      s->tempFileName = std::move(e);
    }
    s->doneFileName = o.getString("doneFileName");
    s->appendChars = unescape(o.getString("appendChars"));
    s->autoCreate = o.getBool("autoCreate");
    s->flatten = o.getBool("flatten");
    s->jail = o.getBool("jailStartingDirectory");
    for (std::string_view mode : {"chmod", "chmodDirectory"}) {
      const std::string& text = o.getString(mode);
      if (!text.empty() &&
          (text.find_first_not_of("01234567") != std::string::npos || text.size() > 4)) {
        return optionError(fmt::format("{} must be octal digits such as 644, not '{}'", mode, text));
      }
    }
    if (!o.getString("chmod").empty()) {
      s->chmod = static_cast<int>(std::stoul(o.getString("chmod"), nullptr, 8) & 07777);
    }
    s->chmodDirectory = o.getString("chmodDirectory");
    s->keepLastModified = o.getBool("keepLastModified");
    s->eagerDeleteTargetFile = o.getBool("eagerDeleteTargetFile");
    s->forceWrites = o.getBool("forceWrites");
    DROMEDARY_TRY(charset, checkedCharset());
    s->charset = std::move(charset);
    return makeFileProducer(std::move(s));
  }

  Result<std::unique_ptr<Consumer>> createConsumer(Processor& processor) override {
    auto s = std::make_shared<ConsumerSettings>();
    const EndpointOptions& o = options();
    s->directory = std::string(parsedUri().path());
    DROMEDARY_TRY(charset, checkedCharset());
    s->charset = std::move(charset);
    while (s->directory.size() > 1 && s->directory.back() == '/') s->directory.pop_back();
    s->initialDelay = o.getDuration("initialDelay");
    s->delay = o.getDuration("delay");
    s->useFixedDelay = o.getBool("useFixedDelay");
    s->recursive = o.getBool("recursive");
    s->minDepth = o.getInt("minDepth");
    s->maxDepth = o.getInt("maxDepth");
    if (!s->recursive) s->maxDepth = 1;
    for (auto [name, slot] : {std::pair{"include", &s->include}, {"exclude", &s->exclude}}) {
      const std::string& text = o.getString(name);
      if (text.empty()) continue;
      try {
        *slot = std::regex(text);
      } catch (const std::regex_error& e) {
        return optionError(fmt::format("{}: '{}' is not a valid regular expression ({})", name,
                                       text, e.what()));
      }
    }
    s->includeExt = commaList(o.getString("includeExt"));
    s->excludeExt = commaList(o.getString("excludeExt"));
    s->antInclude = o.getString("antInclude");
    s->antExclude = o.getString("antExclude");
    s->antCaseSensitive = o.getBool("antFilterCaseSensitive");
    if (!o.getString("filterFile").empty()) {
      DROMEDARY_TRY(p, predicate("filterFile", o.getString("filterFile")));
      s->filterFile = std::move(p);
    }
    if (!o.getString("filterDirectory").empty()) {
      DROMEDARY_TRY(p, predicate("filterDirectory", o.getString("filterDirectory")));
      s->filterDirectory = std::move(p);
    }
    if (!o.getString("fileName").empty()) {
      DROMEDARY_TRY(e, expression("fileName", o.getString("fileName")));
      s->fileName = std::move(e);
    }
    s->doneFileName = o.getString("doneFileName");
    auto sort = parseSortBy(o.getString("sortBy"));
    if (!sort) return optionError(sort.error().message);
    s->sortBy = std::move(*sort);
    s->maxMessagesPerPoll = o.getInt("maxMessagesPerPoll");
    s->eagerMaxMessagesPerPoll = o.getBool("eagerMaxMessagesPerPoll");
    static constexpr std::pair<std::string_view, ReadLock> kLocks[] = {
        {"none", ReadLock::None},         {"markerFile", ReadLock::MarkerFile},
        {"changed", ReadLock::Changed},   {"fileLock", ReadLock::FileLock},
        {"rename", ReadLock::Rename}};
    for (auto [name, value] : kLocks) {
      if (equalsIgnoreCase(o.getString("readLock"), name)) s->readLock = value;
    }
    s->readLockCheckInterval = o.getDuration("readLockCheckInterval");
    s->readLockMinLength = o.getInt("readLockMinLength");
    s->readLockMinAge = o.getDuration("readLockMinAge");
    s->deleteOrphanLockFiles = o.getBool("readLockDeleteOrphanLockFiles");
    s->noop = o.getBool("noop");
    s->deleteFile = o.getBool("delete");
    if (s->noop && s->deleteFile) return optionError("noop and delete cannot both be true");
    const bool idempotent = o.isSet("idempotent") ? o.getBool("idempotent") : s->noop;
    if (idempotent) {
      const std::string& ref = o.getString("idempotentRepository");
      if (ref.empty()) {
        s->idempotent = memoryIdempotentRepository(1000);
      } else {
        std::string_view name = beanName(ref);
        s->idempotent = context().idempotentRepositoryByName(name);
        if (!s->idempotent) {
          return optionError(fmt::format("idempotentRepository: no repository is bound as '{}' "
                                         "(Context::bindIdempotentRepository)", name));
        }
      }
    }
    if (!o.getString("idempotentKey").empty()) {
      DROMEDARY_TRY(e, expression("idempotentKey", o.getString("idempotentKey")));
      s->idempotentKey = std::move(e);
    }
    s->startingDirectoryMustExist =
        o.getBool("startingDirectoryMustExist") || o.getBool("directoryMustExist");
    s->autoCreate = o.getBool("autoCreate");
    s->bridgeErrorHandler = o.getBool("bridgeErrorHandler");
    if (!s->noop && !s->deleteFile) {
      std::string move = o.getString("move").empty() ? ".camel" : o.getString("move");
      DROMEDARY_TRY(e, expression("move", moveExpressionText(move)));
      s->move = std::move(e);
    } else if (!o.getString("move").empty()) {
      return optionError("move cannot be used with noop or delete");
    }
    for (auto [name, slot] : {std::pair{"moveFailed", &s->moveFailed}, {"preMove", &s->preMove}}) {
      if (o.getString(name).empty()) continue;
      DROMEDARY_TRY(e, expression(name, moveExpressionText(o.getString(name))));
      *slot = std::move(e);
    }
    return makeFileConsumer(context(), processor, std::move(s));
  }

 private:
  static bool equalsIgnoreCase(std::string_view a, std::string_view b) {
    return a.size() == b.size() &&
           std::equal(a.begin(), a.end(), b.begin(),
                      [](char x, char y) { return std::tolower(x) == std::tolower(y); });
  }

  Error optionError(std::string what) const {
    return makeError(ErrorCode::InvalidOption, fmt::format("{} (in '{}')", what, uri()));
  }

  Language& simple() const { return *context().language("simple"); }

  Result<std::unique_ptr<Expression>> expression(std::string_view option, std::string_view text) {
    auto e = simple().createExpression(text, context());
    if (!e) return optionError(fmt::format("{}: {}", option, e.error().message));
    return e;
  }

  Result<std::unique_ptr<Predicate>> predicate(std::string_view option, std::string_view text) {
    auto p = simple().createPredicate(text, context());
    if (!p) return optionError(fmt::format("{}: {}", option, p.error().message));
    return p;
  }
};

class FileComponent final : public Component {
 public:
  std::string_view scheme() const override { return "file"; }
  std::string_view syntax() const override { return "file:directoryName"; }
  std::span<const OptionSpec> endpointOptions() const override { return kFileOptions; }
  Result<std::unique_ptr<Endpoint>> createEndpoint(const Uri& uri,
                                                   EndpointOptions options) override {
    if (uri.path().empty()) {
      return makeError(ErrorCode::InvalidUri,
                       fmt::format("a file endpoint needs a folder: file:DIRECTORY, not '{}'",
                                   uri.text()));
    }
    return std::unique_ptr<Endpoint>(new FileEndpoint(*this, uri, std::move(options)));
  }
};

}  // namespace

}  // namespace component::file

void registerFileComponent(Context& context) {
  context.addComponent(std::make_unique<component::file::FileComponent>());
}

}  // namespace dromedary
