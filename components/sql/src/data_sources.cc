// SPDX-License-Identifier: Apache-2.0
#include "data_sources.h"

#include <libpq-fe.h>

#include <algorithm>
#include <array>
#include <charconv>
#include <mutex>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <dromedary/core/logging.h>
#include <dromedary/engine/context.h>
#include <dromedary/spi/bean_processor.h>

#include "pg_database.h"
#include "sqlite_driver.h"

namespace dromedary::component::sql {

namespace {

constexpr std::string_view kPropertyPrefix = "camel.datasource.";

Error urlError(std::string_view url, std::string_view why) {
  return makeError(ErrorCode::InvalidOption,
                   fmt::format("data source URL '{}' {} (expected jdbc:postgresql://HOST:PORT/DB, "
                               "postgresql://..., or jdbc:sqlite:PATH)",
                               url, why));
}

// Whether libpq takes `name` as a connection keyword (application_name, sslmode ...).
bool isLibpqKeyword(std::string_view name) {
  static const std::vector<std::string> keywords = [] {
    std::vector<std::string> out;
    PQconninfoOption* options = PQconndefaults();
    for (PQconninfoOption* o = options; o && o->keyword; ++o) out.emplace_back(o->keyword);
    PQconninfoFree(options);
    return out;
  }();
  return std::find(keywords.begin(), keywords.end(), name) != keywords.end();
}

// A URL parameter as libpq takes it: its own keywords as they are, pgjdbc's under libpq's name.
std::optional<std::pair<std::string, std::string>> libpqParameter(std::string_view name,
                                                                  std::string_view value) {
  if (isLibpqKeyword(name)) return std::pair{std::string(name), std::string(value)};
  if (name == "ssl") return std::pair{std::string("sslmode"), value == "true" ? "require" : "disable"};
  if (name == "ApplicationName") return std::pair{std::string("application_name"), std::string(value)};
  if (name == "connectTimeout") return std::pair{std::string("connect_timeout"), std::string(value)};
  if (name == "currentSchema") {
    return std::pair{std::string("options"), fmt::format("-c search_path={}", value)};
  }
  if (name == "targetServerType") {
    return std::pair{std::string("target_session_attrs"),
                     value == "primary" || value == "master" ? "read-write" : "any"};
  }
  return std::nullopt;
}

Result<std::shared_ptr<Database>> openPostgreSQLUrl(const DataSourceConfig& config,
                                                    std::string_view url) {
  PgSettings settings;
  settings.poolSize = config.poolSize;
  std::string base(url.substr(0, url.find('?')));
  if (base.starts_with("postgres://")) base = "postgresql://" + base.substr(11);
  settings.keywords.emplace_back("dbname", base);
  std::string shown = base;
  size_t at = shown.find('@');
  size_t colon = shown.find(':', 13);  // after "postgresql://"
  if (at != std::string::npos && colon != std::string::npos && colon < at) {
    shown.replace(colon, at - colon, ":***");  // no password in messages
  }
  settings.description = shown;
  if (size_t q = url.find('?'); q != std::string_view::npos) {
    std::string_view query = url.substr(q + 1);
    while (!query.empty()) {
      size_t amp = query.find('&');
      std::string_view pair = query.substr(0, amp);
      query = amp == std::string_view::npos ? std::string_view() : query.substr(amp + 1);
      size_t eq = pair.find('=');
      std::string_view name = pair.substr(0, eq);
      std::string_view value = eq == std::string_view::npos ? "" : pair.substr(eq + 1);
      if (auto mapped = libpqParameter(name, value)) {
        settings.keywords.push_back(std::move(*mapped));
      } else {
        Logger::get("dromedary.sql").log(
            LoggingLevel::Warn,
            fmt::format("data source {}: the URL parameter '{}' has no libpq equivalent and is "
                        "ignored",
                        shown, name));
      }
    }
  }
  if (!config.username.empty()) settings.keywords.emplace_back("user", config.username);
  if (!config.password.empty()) settings.keywords.emplace_back("password", config.password);
  settings.keywords.emplace_back("connect_timeout", "10");
  return openPostgreSQL(std::move(settings));
}

int parsePoolSize(std::string_view text, std::string_view where, Result<void>& error) {
  int n = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), n);
  if (ec != std::errc() || end != text.data() + text.size() || n < 1) {
    error = makeError(ErrorCode::InvalidOption,
                      fmt::format("{} must be a whole number of connections of at least 1, not "
                                  "'{}'",
                                  where, text));
    return 0;
  }
  return n;
}

// The property families a data source is configured by: Camel's own, and those of the two
// runtimes Camel users come from, which Camel JBang reads too (its `sql` example configures
// PostgreSQL with `spring.datasource.*` alone). Keys in order of preference.
struct PropertyFamily {
  std::string_view prefix;  // then NAME. (none for the unnamed data source), then a key
  bool named;               // whether NAME. may follow the prefix
  // Keys in order of preference; unused places are empty.
  using Keys = std::array<std::string_view, 4>;
  Keys url, user, password, pool;
};
constexpr std::string_view kCamelPrefix = kPropertyPrefix;
const PropertyFamily kFamilies[] = {
    {kCamelPrefix, true, {"url", "jdbcUrl", "jdbc-url"}, {"username", "user"}, {"password"},
     {"poolSize", "pool-size", "maximumPoolSize", "maxTotal"}},
    // Spring Boot's single data source (spring.datasource.hikari.* tunes its pool).
    {"spring.datasource.", false, {"url", "jdbc-url"}, {"username"}, {"password"},
     {"hikari.maximum-pool-size", "hikari.maximumPoolSize", "dbcp2.max-total"}},
    // Quarkus: quarkus.datasource.jdbc.url, or quarkus.datasource."NAME".jdbc.url.
    {"quarkus.datasource.", true, {"jdbc.url"}, {"username"}, {"password"}, {"jdbc.max-size"}},
};

// `FAMILY.NAME.KEY` values for NAME (an empty NAME: `FAMILY.KEY`) from the first family that
// gives a URL.
Result<std::optional<DataSourceConfig>> configFromProperties(Context& context,
                                                             std::string_view name) {
  for (const PropertyFamily& family : kFamilies) {
    if (!name.empty() && !family.named) continue;
    // Quarkus quotes names holding dots; both spellings are looked up.
    std::vector<std::string> prefixes;
    if (name.empty()) {
      prefixes.emplace_back(family.prefix);
    } else {
      prefixes.push_back(fmt::format("{}{}.", family.prefix, name));
      if (family.prefix != kCamelPrefix) {
        prefixes.push_back(fmt::format("{}\"{}\".", family.prefix, name));
      }
    }
    for (const std::string& prefix : prefixes) {
      std::string found_key;
      auto get = [&](const PropertyFamily::Keys& keys) -> Result<std::optional<std::string>> {
        for (std::string_view key : keys) {
          if (key.empty()) break;
          std::string full = prefix + std::string(key);
          if (auto raw = context.properties().get(full)) {
            DROMEDARY_TRY(resolved, context.resolvePlaceholders(*raw));
            found_key = std::move(full);
            return std::optional<std::string>(std::move(resolved));
          }
        }
        return std::optional<std::string>();
      };
      DROMEDARY_TRY(url, get(family.url));
      if (!url) continue;
      DataSourceConfig config;
      config.url = *url;
      DROMEDARY_TRY(user, get(family.user));
      DROMEDARY_TRY(password, get(family.password));
      DROMEDARY_TRY(pool, get(family.pool));
      if (user) config.username = *user;
      if (password) config.password = *password;
      if (pool) {
        Result<void> bad;
        config.poolSize = parsePoolSize(*pool, found_key, bad);
        if (!bad) return bad.error();
      }
      return std::optional<DataSourceConfig>(std::move(config));
    }
  }
  return std::optional<DataSourceConfig>();
}

// The names the named families' URL properties configure (`camel.datasource.NAME.url`,
// `quarkus.datasource."NAME".jdbc.url`).
std::vector<std::string> configuredNames(Context& context) {
  std::vector<std::string> names;
  for (const PropertyFamily& family : kFamilies) {
    if (!family.named) continue;
    for (const auto& [key, value] : context.properties().withPrefix(family.prefix)) {
      std::string_view rest = std::string_view(key).substr(family.prefix.size());
      for (std::string_view url_key : family.url) {
        if (url_key.empty()) break;
        if (rest.size() <= url_key.size() + 1 || !rest.ends_with(url_key) ||
            rest[rest.size() - url_key.size() - 1] != '.') {
          continue;
        }
        std::string_view name = rest.substr(0, rest.size() - url_key.size() - 1);
        if (name.size() >= 2 && name.front() == '"' && name.back() == '"') {
          name = name.substr(1, name.size() - 2);
        }
        if (std::find(names.begin(), names.end(), name) == names.end()) names.emplace_back(name);
        break;
      }
    }
  }
  return names;
}

std::mutex open_mutex;  // two routes opening the same configured data source at once

Result<std::shared_ptr<Database>> openConfigured(Context& context, const std::string& name,
                                                 const DataSourceConfig& config) {
  std::lock_guard lock(open_mutex);
  if (auto bound = context.beanByName<Database>(name)) return bound;
  DROMEDARY_TRY(db, openDataSource(config));
  context.bindBean<Database>(name, db);
  return db;
}

}  // namespace

Result<std::shared_ptr<Database>> openDataSource(const DataSourceConfig& config) {
  std::string_view url = config.url;
  if (url.starts_with("jdbc:")) url.remove_prefix(5);
  if (url.starts_with("sqlite:")) {
    std::string path(url.substr(7));
    if (path.empty()) return urlError(config.url, "names no file");
    return openSQLite(path, config.poolSize);
  }
  if (url.starts_with("postgresql:") || url.starts_with("postgres:")) {
    if (url.starts_with("postgresql://") || url.starts_with("postgres://")) {
      return openPostgreSQLUrl(config, url);
    }
    // pgjdbc's short form jdbc:postgresql:DB is a database on localhost.
    std::string full = fmt::format("postgresql://localhost/{}", url.substr(url.find(':') + 1));
    return openPostgreSQLUrl(config, full);
  }
  if (url.find('=') != std::string_view::npos && url.find("://") == std::string_view::npos) {
    // libpq's keyword form: "host=... port=... dbname=...".
    PgSettings settings;
    settings.poolSize = config.poolSize;
    settings.keywords.emplace_back("dbname", std::string(url));
    if (!config.username.empty()) settings.keywords.emplace_back("user", config.username);
    if (!config.password.empty()) settings.keywords.emplace_back("password", config.password);
    settings.description = "PostgreSQL (" + std::string(url.substr(0, url.find("password"))) + ")";
    return openPostgreSQL(std::move(settings));
  }
  return urlError(config.url, "is not a database this build talks to");
}

Result<std::shared_ptr<Database>> lookupDataSource(Context& context, std::string_view reference) {
  std::string_view name = beanName(reference);
  if (!name.empty()) {
    if (auto bound = context.beanByName<Database>(name)) return bound;
    DROMEDARY_TRY(config, configFromProperties(context, name));
    if (config) return openConfigured(context, std::string(name), *config);
    std::vector<std::string> known = context.beanNames<Database>();
    for (std::string& n : configuredNames(context)) known.push_back(std::move(n));
    return makeError(ErrorCode::NotFound,
                     fmt::format("no data source named '{}' (configure one with the property "
                                 "camel.datasource.{}.url, or a DataSource bean){}",
                                 name, name,
                                 known.empty() ? std::string()
                                               : fmt::format("; there are: {}",
                                                             fmt::join(known, ", "))));
  }
  // No name: the only data source there is.
  std::vector<std::string> names = context.beanNames<Database>();
  for (std::string& n : configuredNames(context)) {
    if (std::find(names.begin(), names.end(), n) == names.end()) names.push_back(std::move(n));
  }
  if (names.size() == 1) return lookupDataSource(context, names[0]);
  if (names.empty()) {
    DROMEDARY_TRY(unnamed, configFromProperties(context, ""));
    if (unnamed) return openConfigured(context, "dataSource", *unnamed);
    return makeError(ErrorCode::NotFound,
                     "no data source is configured (set camel.datasource.NAME.url, "
                     "spring.datasource.url or quarkus.datasource.jdbc.url, or "
                     "dataSource=#NAME naming a DataSource bean)");
  }
  return makeError(ErrorCode::InvalidOption,
                   fmt::format("there are {} data sources ({}): say which with dataSource=#NAME",
                               names.size(), fmt::join(names, ", ")));
}

void registerDataSourceBeans(Context& context) {
  // Pooling data sources take url/jdbcUrl, username/user, password and a pool size; the
  // driver class is implied by the URL. PGSimpleDataSource names the server's parts.
  auto pooled = [](Context& c, const Context::BeanDefinition& bean) -> Result<void> {
    DataSourceConfig config;
    for (const auto& [key, value] : bean.properties) {
      if (key == "url" || key == "jdbcUrl" || key == "URL" || key == "databaseUrl") {
        config.url = value;
      } else if (key == "username" || key == "user") {
        config.username = value;
      } else if (key == "password") {
        config.password = value;
      } else if (key == "maxTotal" || key == "maximumPoolSize" || key == "poolSize" ||
                 key == "maxPoolSize") {
        Result<void> bad;
        config.poolSize = parsePoolSize(value, key, bad);
        if (!bad) return bad.error();
      }
      // driverClassName, validationQuery, timeouts ...: the URL decides the driver here.
    }
    if (config.url.empty()) {
      const std::string* server = bean.property("serverName");
      if (!server) server = bean.property("serverNames");
      const std::string* db = bean.property("databaseName");
      if (!server || !db) {
        return makeError(ErrorCode::InvalidOption,
                         "needs the property 'url' (or serverName and databaseName)");
      }
      const std::string* port = bean.property("portNumber");
      if (!port) port = bean.property("portNumbers");
      config.url = fmt::format("postgresql://{}{}/{}", *server,
                               port ? fmt::format(":{}", *port) : std::string(), *db);
    }
    DROMEDARY_TRY(db, openDataSource(config));
    c.bindBean<Database>(bean.name, db);
    return {};
  };
  for (const char* type : {"org.apache.commons.dbcp2.BasicDataSource",
                           "org.apache.commons.dbcp.BasicDataSource",
                           "com.zaxxer.hikari.HikariDataSource",
                           "org.postgresql.ds.PGSimpleDataSource",
                           "org.postgresql.ds.PGPoolingDataSource",
                           "org.postgresql.xa.PGXADataSource",
                           "org.springframework.jdbc.datasource.DriverManagerDataSource",
                           "org.springframework.jdbc.datasource.SimpleDriverDataSource",
                           "org.sqlite.SQLiteDataSource",
                           "io.agroal.pool.DataSource"}) {
    context.addBeanFactory(type, pooled);
  }
}

}  // namespace dromedary::component::sql
