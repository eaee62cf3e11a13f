// SPDX-License-Identifier: Apache-2.0
// stream:in, stream:out, stream:err, stream:http: Camel's stream component for standard input
// and output, and for a streaming HTTP response. stream:in reads lines from standard input, and
// stream:http from the body of a GET to httpUrl as it arrives (libcurl's multi interface), on a
// thread of its own (never a worker: a read may wait for ever), each line (or groupLines of
// them) one exchange, sent and waited for before the next line, as Camel's; at the end of the
// input it stops reading, unless scanStream (stream:http then asks again). stream:out and
// stream:err write each body and a new line.
#include <poll.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <mutex>
#include <string>
#include <thread>

#include <curl/curl.h>
#include <fmt/format.h>

#include <dromedary/core/logging.h>
#include <dromedary/engine/context.h>
#include <dromedary/spi/component.h>
#include <dromedary/spi/consumer_waits.h>

namespace dromedary {
namespace component::stream {

namespace {

constexpr OptionSpec kOptions[] = {
    {"delay", OptionType::Duration, "0",
     "in: time between lines; out/err: time before each write"},
    {"encoding", OptionType::String, "", "Accepted: lines are read and written as bytes"},
    {"promptMessage", OptionType::String, "", "in: written to standard output before each line"},
    {"promptDelay", OptionType::Duration, "0", "in: time before each prompt"},
    {"initialPromptDelay", OptionType::Duration, "2000", "in: time before the first prompt"},
    {"groupLines", OptionType::Int, "0", "in: this many lines per exchange, joined by new lines"},
    {"scanStream", OptionType::Bool, "false",
     "in: keep reading after the end of input (for input that grows)"},
    {"scanStreamDelay", OptionType::Duration, "0", "in: with scanStream, the wait between tries"},
    {"appendNewLine", OptionType::Bool, "true", "out/err: a new line after each body"},
    {"httpUrl", OptionType::String, "", "http: the URL whose response is read, line by line"},
    {"connectTimeout", OptionType::Duration, "0",
     "http: how long to wait to connect (0: libcurl's)"},
};

// Writes all of `data` to `fd`, a write at a time (standard output may be a pipe).
void writeAll(int fd, std::string_view data) {
  while (!data.empty()) {
    ssize_t n = ::write(fd, data.data(), data.size());
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) throw std::runtime_error(fmt::format("cannot write to fd {}: {}", fd, errno));
    data.remove_prefix(static_cast<size_t>(n));
  }
}

std::mutex& outputMutex() {  // lines from several routes do not interleave
  static std::mutex m;
  return m;
}

class StreamProducer final : public Producer {
 public:
  StreamProducer(int fd, std::chrono::milliseconds delay, bool new_line)
      : fd_(fd), delay_(delay), newLine_(new_line) {}

  Status process(Exchange& ex) override {
    if (delay_.count() > 0) std::this_thread::sleep_for(delay_);
    try {
      std::string text;
      std::as_const(ex).message().body().appendTo(text);
      if (newLine_) text += '\n';
      std::lock_guard lock(outputMutex());
      writeAll(fd_, text);
    } catch (...) {
      ex.setException(std::current_exception());
      return Status::Fail;
    }
    return Status::Continue;
  }

 private:
  int fd_;
  std::chrono::milliseconds delay_;
  bool newLine_;
};

struct InSettings {
  std::chrono::milliseconds delay, promptDelay, initialPromptDelay, scanStreamDelay;
  std::string prompt;
  int64_t groupLines;
  bool scanStream;
};

// Reads lines from a source on a thread of its own and feeds them to the route: the source
// (standard input, an HTTP response) says how more of them arrive.
class LineConsumer : public Consumer {
 public:
  LineConsumer(Context& context, Processor& processor, InSettings s)
      : context_(context), processor_(processor), s_(std::move(s)) {}

  Result<void> start() override {
    // A restart after stop(): the previous thread finishes its line first.
    if (thread_.joinable() && thread_.get_id() != std::this_thread::get_id()) thread_.join();
    stopping_ = false;
    waits_.reset();
    thread_ = std::thread([this] {
      ConsumerWaits::Member member(waits_);
      run(member.slot());
    });
    return {};
  }
  /// Reads no more; the line in the route finishes (the context waits for it: completing()).
  void stop() noexcept override { stopping_ = true; }
  size_t completing() const noexcept override { return routing_.load() ? 1 : 0; }

 protected:
  enum class Fill { Data, Idle, End };
  /// Appends what has arrived to `buffer_`: Data, Idle (nothing yet; called again soon, and
  /// may wait up to ~100 ms itself) or End (no more input).
  virtual Fill fill() = 0;
  /// What the log says a line's exchange came from.
  virtual std::string_view name() const = 0;

  // Waits up to `ms` for `stopping_`; false when it came.
  bool pause(std::chrono::milliseconds ms) {
    auto end = std::chrono::steady_clock::now() + ms;
    while (!stopping_ && std::chrono::steady_clock::now() < end) {
      std::this_thread::sleep_for(std::min<std::chrono::milliseconds>(
          std::chrono::milliseconds(20),
          std::chrono::duration_cast<std::chrono::milliseconds>(end -
                                                                std::chrono::steady_clock::now())));
    }
    return !stopping_;
  }

  // The consumer goes: its thread stops waiting for a line still in the route (past the
  // stop's timeout), which ends alone, and is joined. Called by the final classes' destructors,
  // before their part of the object (what fill() uses) goes.
  void halt() noexcept {
    stopping_ = true;
    waits_.abandon();
    if (thread_.joinable() && thread_.get_id() != std::this_thread::get_id()) thread_.join();
  }

  Context& context_;
  Processor& processor_;
  InSettings s_;
  std::atomic<bool> stopping_{false};
  std::string buffer_;

 private:
  // The next line (without its new line); false at the end of input or on stop.
  bool readLine(std::string& line) {
    line.clear();
    for (;;) {
      size_t nl = buffer_.find('\n');
      if (nl != std::string::npos) {
        line.assign(buffer_, 0, nl);
        buffer_.erase(0, nl + 1);
        if (!line.empty() && line.back() == '\r') line.pop_back();
        return true;
      }
      if (eof_) {
        if (buffer_.empty()) return false;
        line.swap(buffer_);  // a last line without a new line
        buffer_.clear();
        return true;
      }
      Fill f = fill();
      if (stopping_) return false;
      if (f == Fill::End) eof_ = true;
    }
  }

  void prompt(bool first) {
    if (s_.prompt.empty()) return;
    if (!pause(first ? s_.initialPromptDelay : s_.promptDelay)) return;
    std::lock_guard lock(outputMutex());
    writeAll(1, s_.prompt);
  }

  void run(ConsumerWaits::Slot& slot) {
    std::string line;
    bool first = true;
    while (!stopping_) {
      prompt(first);
      first = false;
      std::string body;
      int64_t lines = 0;
      const int64_t group = std::max<int64_t>(1, s_.groupLines);
      while (lines < group && readLine(line)) {
        if (lines > 0) body += '\n';
        body += line;
        ++lines;
      }
      if (lines == 0) break;  // the end of input: Camel's consumer stops reading
      ExchangePtr ex = context_.createExchange();
      ex->message().setBody(Value(std::move(body)));
      routing_.store(true);
      const auto outcome = waits_.process(slot, *ex, processor_, &ConsumerWaits::recycle, nullptr);
      routing_.store(false);
      if (outcome == ConsumerWaits::Outcome::Abandoned) {
        (void)ex.release();  // it ends alone, and is recycled then
        break;
      }
      if (outcome == ConsumerWaits::Outcome::Refused) break;
      if (ex->failed()) {
        Logger log = Logger::get("dromedary.stream");
        if (log.enabled(LoggingLevel::Warn)) {
          log.log(LoggingLevel::Warn,
                  fmt::format("{} exchange failed: {}", name(), ex->error().message()));
        }
      }
      if (s_.delay.count() > 0 && !pause(s_.delay)) break;
    }
  }

  std::thread thread_;
  ConsumerWaits waits_;
  std::atomic<bool> routing_{false};  // a line's exchange is in the route
  bool eof_ = false;
};

class StdinConsumer final : public LineConsumer {
 public:
  using LineConsumer::LineConsumer;
  ~StdinConsumer() override { halt(); }

 protected:
  std::string_view name() const override { return "stream:in"; }
  Fill fill() override {
    pollfd p{0, POLLIN, 0};
    int r = ::poll(&p, 1, 100);  // wakes to see a stop
    if (r <= 0) return Fill::Idle;
    char chunk[4096];
    ssize_t n = ::read(0, chunk, sizeof chunk);
    if (n < 0 && errno == EINTR) return Fill::Idle;
    if (n <= 0) {
      if (!s_.scanStream) return Fill::End;
      pause(std::max(s_.scanStreamDelay, std::chrono::milliseconds(100)));
      return Fill::Idle;
    }
    buffer_.append(chunk, static_cast<size_t>(n));
    return Fill::Data;
  }
};

// stream:http: the body of a GET to httpUrl, read as it arrives (a server that streams lines
// and keeps the response open). At its end (or on a failure, logged) the input ends, unless
// scanStream: then it asks again after scanStreamDelay (at least 100 ms).
class HttpStreamConsumer final : public LineConsumer {
 public:
  HttpStreamConsumer(Context& context, Processor& processor, InSettings s, std::string url,
                     std::chrono::milliseconds connect_timeout)
      : LineConsumer(context, processor, std::move(s)), url_(std::move(url)),
        connectTimeout_(connect_timeout), multi_(curl_multi_init()) {}
  ~HttpStreamConsumer() override {
    halt();
    endTransfer();
    curl_multi_cleanup(multi_);
  }

 protected:
  std::string_view name() const override { return "stream:http"; }
  Fill fill() override {
    if (!easy_ && !beginTransfer()) return Fill::End;
    const size_t before = buffer_.size();
    int running = 0;
    curl_multi_perform(multi_, &running);
    if (buffer_.size() > before) return Fill::Data;
    if (running > 0) {
      curl_multi_poll(multi_, nullptr, 0, 100, nullptr);
      return Fill::Idle;
    }
    CURLcode result = CURLE_OK;
    int left = 0;
    while (CURLMsg* m = curl_multi_info_read(multi_, &left)) {
      if (m->msg == CURLMSG_DONE) result = m->data.result;
    }
    std::string failure;
    if (result == CURLE_HTTP_RETURNED_ERROR) {
      long status = 0;
      curl_easy_getinfo(easy_, CURLINFO_RESPONSE_CODE, &status);
      failure = fmt::format("HTTP {}", status);
    } else if (result != CURLE_OK) {
      failure = curl_easy_strerror(result);
    }
    endTransfer();
    if (!failure.empty()) {
      // The first of a run of equal failures at WARN, the rest (scanStream's retries) at DEBUG.
      Logger log = Logger::get("dromedary.stream");
      LoggingLevel level = failure == lastFailure_ ? LoggingLevel::Debug : LoggingLevel::Warn;
      if (log.enabled(level)) {
        log.log(level, fmt::format("stream:http {}: {}{}", url_, failure,
                                   s_.scanStream ? " (asking again)" : ""));
      }
    }
    lastFailure_ = std::move(failure);
    if (!s_.scanStream) return Fill::End;
    pause(std::max(s_.scanStreamDelay, std::chrono::milliseconds(100)));
    return Fill::Idle;
  }

 private:
  static size_t write(char* data, size_t size, size_t count, void* self) {
    static_cast<HttpStreamConsumer*>(self)->buffer_.append(data, size * count);
    return size * count;
  }

  bool beginTransfer() {
    easy_ = curl_easy_init();
    if (!easy_) return false;
    curl_easy_setopt(easy_, CURLOPT_URL, url_.c_str());
    curl_easy_setopt(easy_, CURLOPT_WRITEFUNCTION, &HttpStreamConsumer::write);
    curl_easy_setopt(easy_, CURLOPT_WRITEDATA, this);
    curl_easy_setopt(easy_, CURLOPT_FOLLOWLOCATION, 1L);
    curl_easy_setopt(easy_, CURLOPT_FAILONERROR, 1L);  // a 4xx or 5xx is a failure
    curl_easy_setopt(easy_, CURLOPT_NOSIGNAL, 1L);
    if (connectTimeout_.count() > 0) {
      curl_easy_setopt(easy_, CURLOPT_CONNECTTIMEOUT_MS,
                       static_cast<long>(connectTimeout_.count()));
    }
    curl_multi_add_handle(multi_, easy_);
    return true;
  }

  void endTransfer() {
    if (!easy_) return;
    curl_multi_remove_handle(multi_, easy_);
    curl_easy_cleanup(easy_);
    easy_ = nullptr;
  }

  std::string url_;
  std::chrono::milliseconds connectTimeout_;
  std::string lastFailure_;
  CURLM* multi_;
  CURL* easy_ = nullptr;
};

class StreamEndpoint final : public Endpoint {
 public:
  using Endpoint::Endpoint;

  Result<std::unique_ptr<Producer>> createProducer() override {
    std::string_view kind = parsedUri().path();
    if (kind != "out" && kind != "err") {
      return makeError(ErrorCode::InvalidUri,
                       fmt::format("cannot send to '{}': stream:out and stream:err take messages",
                                   uri()));
    }
    return std::unique_ptr<Producer>(new StreamProducer(kind == "out" ? 1 : 2,
                                                        options().getDuration("delay"),
                                                        options().getBool("appendNewLine")));
  }

  Result<std::unique_ptr<Consumer>> createConsumer(Processor& processor) override {
    std::string_view kind = parsedUri().path();
    if (kind != "in" && kind != "http") {
      return makeError(ErrorCode::InvalidUri,
                       fmt::format("cannot consume from '{}': stream:in and stream:http give "
                                   "messages",
                                   uri()));
    }
    const EndpointOptions& o = options();
    InSettings s{o.getDuration("delay"),       o.getDuration("promptDelay"),
                 o.getDuration("initialPromptDelay"), o.getDuration("scanStreamDelay"),
                 o.getString("promptMessage"), o.getInt("groupLines"),
                 o.getBool("scanStream")};
    if (kind == "http") {
      return std::unique_ptr<Consumer>(new HttpStreamConsumer(
          context(), processor, std::move(s), o.getString("httpUrl"),
          o.getDuration("connectTimeout")));
    }
    return std::unique_ptr<Consumer>(new StdinConsumer(context(), processor, std::move(s)));
  }
};

class StreamComponent final : public Component {
 public:
  std::string_view scheme() const override { return "stream"; }
  std::string_view syntax() const override { return "stream:kind"; }
  std::span<const OptionSpec> endpointOptions() const override { return kOptions; }
  Result<std::unique_ptr<Endpoint>> createEndpoint(const Uri& uri,
                                                   EndpointOptions options) override {
    std::string_view kind = uri.path();
    if (kind != "in" && kind != "out" && kind != "err" && kind != "http") {
      return makeError(ErrorCode::InvalidUri,
                       fmt::format("unknown stream '{}' in '{}': expected stream:in, stream:out, "
                                   "stream:err or stream:http",
                                   kind, uri.text()));
    }
    const std::string& url = options.getString("httpUrl");
    if (kind == "http" && !url.starts_with("http://") && !url.starts_with("https://")) {
      return makeError(ErrorCode::InvalidUri,
                       fmt::format("'{}' needs httpUrl: the http:// or https:// URL to read",
                                   uri.text()));
    }
    return std::unique_ptr<Endpoint>(new StreamEndpoint(*this, uri, std::move(options)));
  }
};

}  // namespace

}  // namespace component::stream

void registerStreamComponent(Context& context) {
  context.addComponent(std::make_unique<component::stream::StreamComponent>());
}

}  // namespace dromedary
