{{/* Names, labels, the image, and the pod pieces every role shares. */}}

{{- define "cp.fullname" -}}
{{- if contains .Chart.Name .Release.Name -}}
{{- .Release.Name | trunc 50 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .Release.Name .Chart.Name | trunc 50 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}

{{- define "cp.selector" -}}
app.kubernetes.io/name: {{ .root.Chart.Name }}
app.kubernetes.io/instance: {{ .root.Release.Name }}
app.kubernetes.io/component: {{ .component }}
{{- end -}}

{{- define "cp.labels" -}}
{{ include "cp.selector" . }}
app.kubernetes.io/version: {{ .root.Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .root.Release.Service }}
helm.sh/chart: {{ printf "%s-%s" .root.Chart.Name .root.Chart.Version }}
{{- end -}}

{{- define "cp.image" -}}
{{- if .Values.image.digest -}}
{{- printf "%s@%s" .Values.image.repository .Values.image.digest -}}
{{- else -}}
{{- printf "%s:%s" .Values.image.repository (.Values.image.tag | default .Chart.AppVersion) -}}
{{- end -}}
{{- end -}}

{{/* The chart's own Secret holds whatever the values give; existing Secrets are referenced as they are. */}}
{{- define "cp.secretRef" -}}
valueFrom:
  secretKeyRef:
    name: {{ .name | default (printf "%s-env" (include "cp.fullname" .root)) }}
    key: {{ .key }}
{{- end -}}

{{- define "cp.validate" -}}
{{- if not (or .Values.secrets.existingSecret (and .Values.secrets.secretKey .Values.secrets.fieldEncryptionKey)) -}}
{{- fail "set secrets.existingSecret, or both secrets.secretKey and secrets.fieldEncryptionKey" -}}
{{- end -}}
{{- if not (or .Values.database.existingSecret .Values.database.url) -}}
{{- fail "set database.url (postgres://...) or database.existingSecret" -}}
{{- end -}}
{{- if not (or .Values.redis.existingSecret (and .Values.redis.brokerUrl .Values.redis.cacheUrl)) -}}
{{- fail "set redis.existingSecret, or both redis.brokerUrl and redis.cacheUrl" -}}
{{- end -}}
{{- if and (hasPrefix "oci://" .Values.gatewayChart.ref) (not .Values.gatewayChart.version) (not (contains "@sha256:" .Values.gatewayChart.ref)) -}}
{{- fail "gatewayChart.version is required for an oci:// chart that is not pinned by digest" -}}
{{- end -}}
{{- end -}}

{{/* Environment of every container: secrets by reference, settings from values. */}}
{{- define "cp.env" -}}
- name: POD_IP
  valueFrom:
    fieldRef:
      fieldPath: status.podIP
- name: SECRET_KEY
  {{- include "cp.secretRef" (dict "root" . "name" .Values.secrets.existingSecret "key" "SECRET_KEY") | nindent 2 }}
- name: FIELD_ENCRYPTION_KEY
  {{- include "cp.secretRef" (dict "root" . "name" .Values.secrets.existingSecret "key" "FIELD_ENCRYPTION_KEY") | nindent 2 }}
- name: DATABASE_URL
  {{- include "cp.secretRef" (dict "root" . "name" .Values.database.existingSecret "key" (ternary .Values.database.existingSecretKey "DATABASE_URL" (ne .Values.database.existingSecret ""))) | nindent 2 }}
- name: CELERY_BROKER_URL
  {{- include "cp.secretRef" (dict "root" . "name" .Values.redis.existingSecret "key" (ternary .Values.redis.brokerUrlKey "CELERY_BROKER_URL" (ne .Values.redis.existingSecret ""))) | nindent 2 }}
- name: CACHE_URL
  {{- include "cp.secretRef" (dict "root" . "name" .Values.redis.existingSecret "key" (ternary .Values.redis.cacheUrlKey "CACHE_URL" (ne .Values.redis.existingSecret ""))) | nindent 2 }}
- name: ALLOWED_HOSTS
  value: {{ join "," (concat (list "$(POD_IP)" "localhost" "127.0.0.1") .Values.api.allowedHosts) | quote }}
{{- with (ternary .Values.content.publicUrl "" .Values.content.enabled) | default .Values.api.publicUrl }}
- name: CATALOG_BASE_URL
  value: {{ . | quote }}
{{- end }}
{{- with .Values.api.publicUrl }}
- name: CSRF_TRUSTED_ORIGINS
  value: {{ . | quote }}
{{- end }}
- name: GATEWAY_CHART
  value: {{ .Values.gatewayChart.ref | quote }}
- name: GATEWAY_CHART_VERSION
  value: {{ .Values.gatewayChart.version | quote }}
{{- range $name, $value := .Values.env }}
- name: {{ $name }}
  value: {{ $value | quote }}
{{- end }}
{{- end -}}

{{/* Pod-level settings shared by every role (the migration hook runs before the ServiceAccount exists). */}}
{{- define "cp.podSpec" -}}
automountServiceAccountToken: false
{{- if not .hook }}
serviceAccountName: {{ include "cp.fullname" .root }}
{{- end }}
securityContext:
  {{- toYaml .root.Values.podSecurityContext | nindent 2 }}
{{- with .root.Values.imagePullSecrets }}
imagePullSecrets:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- with .root.Values.nodeSelector }}
nodeSelector:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- with .root.Values.tolerations }}
tolerations:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- with .root.Values.affinity }}
affinity:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- end -}}

{{/* The container of one role: `args` are the entrypoint's (role first). */}}
{{- define "cp.container" -}}
- name: {{ .component }}
  image: {{ include "cp.image" .root }}
  imagePullPolicy: {{ .root.Values.image.pullPolicy }}
  args: {{ toJson .args }}
  env:
    {{- include "cp.env" .root | nindent 4 }}
    {{- range $name, $value := .env }}
    - name: {{ $name }}
      value: {{ $value | quote }}
    {{- end }}
  securityContext:
    {{- toYaml .root.Values.containerSecurityContext | nindent 4 }}
  {{- with .resources }}
  resources:
    {{- toYaml . | nindent 4 }}
  {{- end }}
  volumeMounts:
    - name: tmp
      mountPath: /tmp
    - name: state
      mountPath: /var/lib/controlplane
    {{- if .catalogs }}
    - name: catalogs
      mountPath: /var/lib/controlplane/catalogs
    {{- end }}
    {{- if .metrics }}
    - name: metrics
      mountPath: /run/metrics
    {{- end }}
{{- end -}}

{{/* Writable volumes: the root filesystem is read-only. */}}
{{- define "cp.volumes" -}}
- name: tmp
  emptyDir: {}
- name: state
  emptyDir: {}
{{- if .catalogs }}
- name: catalogs
  {{- if .root.Values.catalogStore.existingClaim }}
  persistentVolumeClaim:
    claimName: {{ .root.Values.catalogStore.existingClaim }}
  {{- else }}
  emptyDir: {}
  {{- end }}
{{- end }}
{{- if .metrics }}
- name: metrics
  emptyDir:
    medium: Memory
{{- end }}
{{- end -}}
