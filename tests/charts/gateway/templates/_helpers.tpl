{{/* Names: every resource is named after the release (trimmed to 63 characters). */}}
{{- define "openshell-gateway.name" -}}
{{- .Chart.Name | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{- define "openshell-gateway.fullname" -}}
{{- .Release.Name | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{- define "openshell-gateway.chart" -}}
{{- printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{- define "openshell-gateway.selectorLabels" -}}
app.kubernetes.io/name: {{ include "openshell-gateway.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end -}}

{{- define "openshell-gateway.labels" -}}
helm.sh/chart: {{ include "openshell-gateway.chart" . }}
{{ include "openshell-gateway.selectorLabels" . }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
app.kubernetes.io/part-of: openshell
{{- end -}}

{{/* The sandbox ServiceAccount; on OpenShift the control plane binds it to the privileged SCC. */}}
{{/* Named as upstream: `<release>-openshell-sandbox`, or `<release>-sandbox` when the release contains "openshell". */}}
{{- define "openshell-gateway.sandboxServiceAccount" -}}
{{- $fullname := ternary .Release.Name (printf "%s-openshell" .Release.Name) (contains "openshell" .Release.Name) -}}
{{- printf "%s-sandbox" ($fullname | trunc 63 | trimSuffix "-") | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{- define "openshell-gateway.hookName" -}}
{{- printf "%s-migrate" (include "openshell-gateway.fullname" .) | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{/* Images render as repository:tag, exactly like the upstream chart. */}}
{{- define "openshell-gateway.image" -}}
{{- printf "%s:%s" .Values.image.repository .Values.image.tag -}}
{{- end -}}

{{- define "openshell-gateway.supervisorImage" -}}
{{- printf "%s:%s" .Values.supervisor.image.repository .Values.supervisor.image.tag -}}
{{- end -}}

{{/* The database URI: from the external Secret's `uri` key, else the embedded database on the data volume. */}}
{{- define "openshell-gateway.databaseEnv" -}}
{{- if .Values.server.externalDbSecret }}
- name: OPENSHELL_DATABASE_URL
  valueFrom:
    secretKeyRef:
      name: {{ .Values.server.externalDbSecret }}
      key: uri
{{- else }}
- name: OPENSHELL_DATABASE_URL
  value: sqlite:///var/lib/openshell/gateway.db
{{- end }}
{{- end -}}

{{/* The sandbox JWT signing Secret, named as upstream's default: `<fullname>-jwt-keys`. */}}
{{- define "openshell-gateway.jwtSecretName" -}}
{{- printf "%s-jwt-keys" (include "openshell-gateway.fullname" .) -}}
{{- end -}}
