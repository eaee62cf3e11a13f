// SPDX-License-Identifier: Apache-2.0
#include "curl_loop.h"

#include <algorithm>
#include <cstring>
#include <mutex>

namespace dromedary::component::httpclient {

void initCurlOnce() noexcept {
  static std::once_flag once;
  std::call_once(once, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
}

// --- Transfer ---

Transfer::Transfer() : easy(curl_easy_init()) { error[0] = '\0'; }

Transfer::~Transfer() { curl_easy_cleanup(easy); }

void Transfer::reset() noexcept {
  curl_easy_reset(easy);
  error[0] = '\0';
  url.clear();
  requestBody.clear();
  header_text.clear();
  header_starts.clear();
  responseBody.reset(nullptr);
  bodyFailure.clear();
  responseHeaderText.clear();
  reason.clear();
  ignoreBody = false;
  poolTimeoutMs = 0;
  poolTimedOut = false;
  cookies = nullptr;
  exchange = nullptr;
  owner = nullptr;
  done = nullptr;
}

void Transfer::addHeader(std::string_view name, std::string_view value) {
  header_starts.push_back(header_text.size());
  header_text.append(name);
  // "Name;" is curl's way to send a header with an empty value ("Name:" would remove it).
  if (value.empty()) {
    header_text += ';';
  } else {
    header_text += ": ";
    header_text.append(value);
  }
  header_text += '\0';
}

void Transfer::suppressHeader(std::string_view name) {
  header_starts.push_back(header_text.size());
  header_text.append(name);
  header_text += ":";
  header_text += '\0';
}

curl_slist* Transfer::headerList() noexcept {
  if (header_starts.empty()) return nullptr;
  if (header_nodes.size() < header_starts.size()) header_nodes.resize(header_starts.size());
  for (size_t i = 0; i < header_starts.size(); ++i) {
    header_nodes[i].data = header_text.data() + header_starts[i];
    header_nodes[i].next = i + 1 < header_starts.size() ? &header_nodes[i + 1] : nullptr;
  }
  return header_nodes.data();
}

namespace {

// "scheme://host:port" of a URL, into `key` (its capacity kept): the pool's route. A URL
// without a port gets its scheme's, so that http://h and http://h:80 share their leases.
void poolKeyOf(std::string_view url, std::string& key) {
  key.clear();
  size_t scheme_end = url.find("://");
  if (scheme_end == std::string_view::npos) {
    key.append(url);
    return;
  }
  std::string_view scheme = url.substr(0, scheme_end);
  std::string_view authority = url.substr(scheme_end + 3);
  authority = authority.substr(0, authority.find_first_of("/?#"));
  if (size_t at = authority.rfind('@'); at != std::string_view::npos) {
    authority.remove_prefix(at + 1);
  }
  key.append(scheme).append("://").append(authority);
  size_t colon = authority.rfind(':');
  size_t bracket = authority.rfind(']');
  bool has_port = colon != std::string_view::npos &&
                  (bracket == std::string_view::npos || colon > bracket);
  if (!has_port) key.append(scheme.size() == 5 ? ":443" : ":80");
}

}  // namespace

// --- CurlLoop ---

struct CurlLoop::AllMutex {
  std::mutex mutex;
};

CurlLoop::CurlLoop(Limits limits)
    : limits_(limits), all_mutex_(std::make_unique<AllMutex>()) {
  initCurlOnce();
  multi_ = curl_multi_init();
  curl_multi_setopt(multi_, CURLMOPT_MAX_TOTAL_CONNECTIONS, limits.maxTotal);
  curl_multi_setopt(multi_, CURLMOPT_MAX_HOST_CONNECTIONS, limits.perHost);
  // Idle connections kept for reuse: as many as may be open.
  curl_multi_setopt(multi_, CURLMOPT_MAXCONNECTS, limits.maxTotal);
  curl_multi_setopt(multi_, CURLMOPT_PIPELINING, CURLPIPE_MULTIPLEX);
  thread_ = std::thread([this] { run(); });
}

CurlLoop::~CurlLoop() {
  stopping_.store(true, std::memory_order_release);
  curl_multi_wakeup(multi_);
  thread_.join();
  curl_multi_cleanup(multi_);
}

Transfer* CurlLoop::acquire() {
  Transfer* t = nullptr;
  if (!free_.try_dequeue(t)) {
    auto made = std::make_unique<Transfer>();
    t = made.get();
    std::lock_guard lock(all_mutex_->mutex);
    all_.push_back(std::move(made));
  }
  t->reset();
  t->loop = this;
  return t;
}

void CurlLoop::release(Transfer* transfer) noexcept {
  transfer->exchange = nullptr;
  free_.enqueue(transfer);
}

void CurlLoop::submit(Transfer* transfer) noexcept {
  curl_easy_setopt(transfer->easy, CURLOPT_PRIVATE, transfer);
  incoming_.enqueue(transfer);
  curl_multi_wakeup(multi_);
}

void CurlLoop::start(Transfer* t) noexcept {
  if (t->cookies) curl_easy_setopt(t->easy, CURLOPT_SHARE, t->cookies);
  CURLMcode added = curl_multi_add_handle(multi_, t->easy);
  if (added != CURLM_OK) {
    if (t->cookies) curl_easy_setopt(t->easy, CURLOPT_SHARE, nullptr);
    std::snprintf(t->error, sizeof t->error, "%s", curl_multi_strerror(added));
    t->done(*t, CURLE_FAILED_INIT);
    return;
  }
  ++leased_.find(std::string_view(t->poolKey))->second;
  active_.push_back(t);
}

void CurlLoop::finished(Transfer* t) noexcept {
  curl_multi_remove_handle(multi_, t->easy);
  // Detached here, on the loop thread: an idle handle holds no endpoint's cookie store.
  if (t->cookies) curl_easy_setopt(t->easy, CURLOPT_SHARE, nullptr);
  auto it = std::find(active_.begin(), active_.end(), t);
  if (it != active_.end()) {
    *it = active_.back();
    active_.pop_back();
  }
  --leased_.find(std::string_view(t->poolKey))->second;
}

int CurlLoop::admitWaiting() noexcept {
  using namespace std::chrono;
  const auto now = steady_clock::now();
  long next_ms = 1000;
  for (size_t i = 0; i < waiting_.size();) {
    Transfer* t = waiting_[i];
    long& leases = leased_.find(std::string_view(t->poolKey))->second;
    if (static_cast<long>(active_.size()) < limits_.maxTotal && leases < limits_.perHost) {
      waiting_.erase(waiting_.begin() + static_cast<ptrdiff_t>(i));
      start(t);
      continue;
    }
    if (t->poolTimeoutMs > 0) {
      long waited = static_cast<long>(duration_cast<milliseconds>(now - t->queuedAt).count());
      if (waited >= t->poolTimeoutMs) {
        waiting_.erase(waiting_.begin() + static_cast<ptrdiff_t>(i));
        t->poolTimedOut = true;
        t->done(*t, CURLE_OPERATION_TIMEDOUT);
        continue;
      }
      next_ms = std::min(next_ms, t->poolTimeoutMs - waited);
    }
    ++i;
  }
  return static_cast<int>(next_ms);
}

void CurlLoop::run() noexcept {
  int poll_ms = 1000;
  while (true) {
    bool stopping = stopping_.load(std::memory_order_acquire);
    Transfer* t = nullptr;
    bool arrived = false;
    while (incoming_.try_dequeue(t)) {
      if (stopping) {
        t->done(*t, CURLE_ABORTED_BY_CALLBACK);
        continue;
      }
      poolKeyOf(t->url, t->poolKey);
      if (leased_.find(std::string_view(t->poolKey)) == leased_.end()) {
        leased_.emplace(t->poolKey, 0);
      }
      t->queuedAt = std::chrono::steady_clock::now();
      waiting_.push_back(t);
      arrived = true;
    }
    if (stopping) {
      for (Transfer* a : active_) {
        curl_multi_remove_handle(multi_, a->easy);
        if (a->cookies) curl_easy_setopt(a->easy, CURLOPT_SHARE, nullptr);
        a->done(*a, CURLE_ABORTED_BY_CALLBACK);
      }
      active_.clear();
      for (Transfer* w : waiting_) w->done(*w, CURLE_ABORTED_BY_CALLBACK);
      waiting_.clear();
      return;
    }
    if (arrived || !waiting_.empty()) poll_ms = admitWaiting();
    int running = 0;
    curl_multi_perform(multi_, &running);
    int left = 0;
    bool freed = false;
    while (CURLMsg* msg = curl_multi_info_read(multi_, &left)) {
      if (msg->msg != CURLMSG_DONE) continue;
      Transfer* done = nullptr;
      curl_easy_getinfo(msg->easy_handle, CURLINFO_PRIVATE, &done);
      CURLcode result = msg->data.result;
      finished(done);
      done->done(*done, result);
      freed = true;
    }
    // A lease given back lets a waiting request start at once, not at the next wake-up.
    if (freed && !waiting_.empty()) continue;
    curl_multi_poll(multi_, nullptr, 0, waiting_.empty() ? 1000 : std::max(poll_ms, 1),
                    nullptr);
  }
}

}  // namespace dromedary::component::httpclient
