// Package etl is a client for the ETL import API of the planning service: typed requests and responses, auth, retries, streaming uploads and errors that carry status and body.
package etl
